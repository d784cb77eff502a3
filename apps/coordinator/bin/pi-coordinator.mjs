#!/usr/bin/env node
// Runs the TypeScript entry point directly: the workspace ships sources, tsx strips types on load.
import { register } from 'tsx/esm/api';

register();
await import('../src/main.ts');
