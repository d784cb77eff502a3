import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const REGISTER = pathToFileURL(join(fileURLToPath(new URL('.', import.meta.url)), 'module-log', 'register.mjs')).href;

/**
 * Environment that makes a child `node` process log every module it loads into `file`: run-time proof of what
 * a host imported (for example, that a presentation never loads a session module).
 */
export function moduleLogEnvironment(file: string, env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const options = [env['NODE_OPTIONS'], `--import=${REGISTER}`].filter(Boolean).join(' ');
  return { PI_MODULE_LOG: file, NODE_OPTIONS: options };
}

/** The module URLs a child logged, in load order. */
export async function loadedModules(file: string): Promise<string[]> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text.split('\n').filter((line) => line !== '');
}
