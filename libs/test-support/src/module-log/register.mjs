// Loaded with `node --import`: records the URL of every module the process loads, one per line, in the file
// named by PI_MODULE_LOG (the hooks run on Node's loader thread, so they append to a file).
import { register } from 'node:module';

if (process.env.PI_MODULE_LOG) {
  register('./hooks.mjs', import.meta.url, { data: { file: process.env.PI_MODULE_LOG } });
}
