#!/usr/bin/env -S node --max-semi-space-size=1
// V8 keeps the young generation at two 1 MiB semi-spaces, as npm start does: see docs/decisions.md ("The TUI's
// young generation").
// Runs the bundle npm start builds (dist/apps/tui) when it is current, else the TypeScript sources through tsx.
import { launchProgram } from '@pi/connection-files/launch';

await launchProgram(import.meta.url, { bundle: '../../../dist/apps/tui/pi-tui.mjs', source: '../src/main.ts' });
