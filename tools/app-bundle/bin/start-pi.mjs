#!/usr/bin/env node
// npm start: the bundles checked (built when stale), then the bundled `pi-tui --start` in this same process, so the
// start pays for one node process, not one per step.
import { fileURLToPath } from 'node:url';
import { bundleUrl, ensureCurrentBundles } from '../src/current-bundles.mjs';

await ensureCurrentBundles();
const tui = bundleUrl('tui');
// pi-tui reads its flags from argv as if it had been started itself: `pi-tui --start <what npm start passed>`.
process.argv.splice(1, 1, fileURLToPath(tui), '--start');
await import(tui.href);
