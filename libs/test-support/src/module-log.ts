import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const REGISTER = pathToFileURL(join(fileURLToPath(new URL('.', import.meta.url)), 'module-log', 'register.mjs')).href;

/**
 * Environment that makes a child `node` process log every module it loads into `file`: run-time proof of what
 * a host imported (for example, that a presentation never loads a session module). The program runs from its
 * sources (`PI_FROM_SOURCE`), since a bundle's chunks would not name the modules they hold.
 */
export function moduleLogEnvironment(file: string, env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const options = [env['NODE_OPTIONS'], `--import=${REGISTER}`].filter(Boolean).join(' ');
  return { PI_MODULE_LOG: file, NODE_OPTIONS: options, PI_FROM_SOURCE: '1' };
}

/** The module URLs a child logged, in load order. */
export async function loadedModules(file: string): Promise<string[]> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text.split('\n').filter((line) => line !== '');
}
