import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connect } from '@pi/client';
import type { HostDescription } from '@pi/remote';

/** pi-session's bin, run as a process: the CLI is a presentation and never imports session code. */
const PI_SESSION = fileURLToPath(new URL('../../../session/bin/pi-session.mjs', import.meta.url));
const LISTENING = /^pi-session (\S+): listening on /m;

/**
 * Starts a throwaway `pi-session` with the default manifest in a temporary directory, asks it `$rpc.describe`
 * through the client library, and stops it.
 */
export async function describeDefaultSession(): Promise<HostDescription> {
  const root = await mkdtemp(join(tmpdir(), 'pi-doc-'));
  const dirs = { data: join(root, 'data'), config: join(root, 'config'), cwd: join(root, 'project') };
  await mkdir(dirs.cwd, { recursive: true });
  const child = spawn(
    process.execPath,
    [
      PI_SESSION,
      '--cwd',
      dirs.cwd,
      '--data-dir',
      dirs.data,
      '--config-dir',
      dirs.config,
      '--socket',
      join(root, 's.sock'),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, XDG_CONFIG_HOME: join(root, 'xdg') } },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    const sessionId = await listening(child.stdout, child.stderr, exited);
    const client = (await connect({ session: sessionId, dataDir: dirs.data, reconnect: false })).match(
      (connected) => connected,
      (error) => {
        throw error;
      },
    );
    try {
      return await client.describe();
    } finally {
      client.close();
    }
  } finally {
    child.kill('SIGTERM');
    await exited;
    await rm(root, { recursive: true, force: true });
  }
}

function listening(
  stdout: NodeJS.ReadableStream,
  stderr: NodeJS.ReadableStream,
  exited: Promise<void>,
): Promise<string> {
  let output = '';
  return new Promise((resolve, reject) => {
    stderr.setEncoding('utf8');
    stderr.on('data', (chunk: string) => (output += chunk));
    stdout.setEncoding('utf8');
    stdout.on('data', (chunk: string) => {
      output += chunk;
      const match = LISTENING.exec(output);
      if (match?.[1] !== undefined) resolve(match[1]);
    });
    void exited.then(() => reject(new Error(`pi-session exited before listening: ${output.trim()}`)));
  });
}
