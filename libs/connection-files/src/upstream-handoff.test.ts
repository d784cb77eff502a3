import { spawn, type StdioOptions } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { compiledScript } from '@pi/compiled-script';
import {
  UPSTREAM_HANDOFF_MAX_BYTES,
  upstreamHandoffSchema,
  type HandoffError,
  type UpstreamHandoff,
} from './upstream-handoff';

const handoff: UpstreamHandoff = {
  version: 1,
  socketPath: '/run/user/1000/pi/coordinator.sock',
  credential: 'per-session-secret',
  sessionId: 's-1',
  workspaceId: 'w-0123456789abcdef',
};

const folders: string[] = [];
afterEach(async () => {
  await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
});

async function folder(): Promise<string> {
  const path = await mkdtemp(join(tmpdir(), 'pi-handoff-'));
  folders.push(path);
  return path;
}

/** Runs readUpstreamHandoff in a child process (as pi-session would) and returns what it read. */
async function readInChild(
  stdio: StdioOptions,
  feed: (pipe: Writable) => void = () => undefined,
  fd?: number,
): Promise<{ ok?: UpstreamHandoff; err?: HandoffError }> {
  const script = await compiledScript(fileURLToPath(new URL('../test/read-upstream-handoff.ts', import.meta.url)));
  const child = spawn(process.execPath, [script, ...(fd === undefined ? [] : [String(fd)])], { stdio });
  let output = '';
  let errors = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (errors += chunk));
  const pipe = child.stdio[3];
  if (pipe !== undefined && pipe !== null && 'write' in pipe) {
    pipe.on('error', () => undefined); // the child may stop reading early (too large)
    feed(pipe);
  }
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  expect({ code, errors }).toEqual({ code: 0, errors: '' });
  return JSON.parse(output) as { ok?: UpstreamHandoff; err?: HandoffError };
}

const viaPipe = (text: string) => (pipe: Writable) => pipe.end(text, () => pipe.destroy());

describe('the upstream handoff on fd 3', { timeout: 30_000 }, () => {
  it('arrives as one JSON line on a pipe the parent closes', async () => {
    const result = await readInChild(['ignore', 'pipe', 'pipe', 'pipe'], viaPipe(`${JSON.stringify(handoff)}\n`));
    expect(result).toEqual({ ok: handoff });
  });

  it('arrives in pieces just the same', async () => {
    const text = JSON.stringify(handoff);
    const result = await readInChild(['ignore', 'pipe', 'pipe', 'pipe'], (pipe) => {
      pipe.write(text.slice(0, 10));
      setTimeout(() => pipe.end(text.slice(10), () => pipe.destroy()), 20);
    });
    expect(result.ok).toEqual(handoff);
  });

  it('can be a regular file', async () => {
    const file = join(await folder(), 'handoff.json');
    await writeFile(file, JSON.stringify(handoff));
    const fd = openSync(file, 'r');
    try {
      expect((await readInChild(['ignore', 'pipe', 'pipe', fd])).ok).toEqual(handoff);
    } finally {
      closeSync(fd);
    }
  });

  it('is not_open when the process got no fd 3 (nor reads the event loop descriptor that takes its number)', async () => {
    expect((await readInChild(['ignore', 'pipe', 'pipe'])).err?.code).toBe('not_open');
  });

  it('is not_open for a descriptor that is not open at all', async () => {
    const result = await readInChild(['ignore', 'pipe', 'pipe'], undefined, 1000);
    expect(result.err).toEqual({
      code: 'not_open',
      message: 'File descriptor 1000 is not an open pipe: no upstream handoff',
    });
  });

  it('is too_large beyond the bound, without reading on', async () => {
    const big = JSON.stringify({ ...handoff, socketPath: 'x'.repeat(UPSTREAM_HANDOFF_MAX_BYTES) });
    expect((await readInChild(['ignore', 'pipe', 'pipe', 'pipe'], viaPipe(big))).err?.code).toBe('too_large');
  });

  it('is not_json for anything else, including nothing', async () => {
    expect((await readInChild(['ignore', 'pipe', 'pipe', 'pipe'], viaPipe('socket=/x'))).err?.code).toBe('not_json');
    expect((await readInChild(['ignore', 'pipe', 'pipe', 'pipe'], viaPipe(''))).err?.code).toBe('not_json');
  });

  it('is invalid for JSON of another shape, naming fields but never echoing the credential', async () => {
    const extra = JSON.stringify({ ...handoff, token: 'other' });
    const wrong = JSON.stringify({ ...handoff, version: 2, sessionId: '../etc' });
    const first = await readInChild(['ignore', 'pipe', 'pipe', 'pipe'], viaPipe(extra));
    const second = await readInChild(['ignore', 'pipe', 'pipe', 'pipe'], viaPipe(wrong));
    expect(first.err?.code).toBe('invalid');
    expect(second.err).toEqual({
      code: 'invalid',
      message: 'The upstream handoff on file descriptor 3 is not valid (version, sessionId)',
    });
    expect(JSON.stringify([first, second])).not.toContain(handoff.credential);
  });
});

describe('the handoff of a coordinator with replicas', () => {
  it('may name the other replicas by ws:/wss: URL and the CA they chain to, and nothing but such URLs', () => {
    const withReplicas = { ...handoff, replicas: ['wss://replica-b:7443/'], ca: '-----BEGIN CERTIFICATE-----' };
    expect(upstreamHandoffSchema.safeParse(withReplicas).success).toBe(true);
    for (const replicas of [['https://replica-b/'], ['wss://has space/'], Array(17).fill('wss://r/')]) {
      expect(upstreamHandoffSchema.safeParse({ ...handoff, replicas }).success, String(replicas[0])).toBe(false);
    }
  });
});
