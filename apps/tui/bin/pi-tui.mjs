#!/usr/bin/env node
// Runs the bundle npm start builds (dist/apps/tui) when it is current, else the TypeScript sources through tsx.
import { launchProgram } from '@pi/connection-files/launch';

await launchProgram(import.meta.url, { bundle: '../../../dist/apps/tui/pi-tui.mjs', source: '../src/main.ts' });
