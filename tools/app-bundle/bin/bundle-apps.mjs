#!/usr/bin/env node
// Makes sure dist/apps holds current bundles of the apps, rebuilding only what is stale (the bundle target).
import { ensureCurrentBundles } from '../src/current-bundles.mjs';

await ensureCurrentBundles();
