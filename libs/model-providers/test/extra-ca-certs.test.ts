import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { makeTestCertificates } from '@pi/transport-trpc/testing';
import { describe, expect, it, onTestFinished } from 'vitest';
import { beginEventStream, chunkEvent, startFakeChatServer } from '../src/testing';

const TURN = fileURLToPath(new URL('./stream-one-turn.ts', import.meta.url));

/** A child `node` streaming one turn from `baseUrl`, with `env` added to this process's environment. */
async function turnInChild(baseUrl: string, env: Record<string, string>) {
  const { NODE_EXTRA_CA_CERTS: _theMachines, ...inherited } = process.env;
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', TURN, baseUrl], {
    env: { ...inherited, ...env },
  });
  return JSON.parse(stdout) as { events: unknown[]; error: string | null; undiciLoaded: boolean };
}

describe('a session process streaming over HTTPS', () => {
  // Two `node` + tsx starts: generous on a loaded machine, never asserted on.
  it(
    'trusts the CA the user names in NODE_EXTRA_CA_CERTS, and never loads fetch for a turn',
    { timeout: 60_000 },
    async () => {
      const certificates = await makeTestCertificates();
      const folder = await mkdtemp(join(tmpdir(), 'pi-extra-ca-'));
      onTestFinished(() => rm(folder, { recursive: true, force: true }));
      const caFile = join(folder, 'ca.pem');
      await writeFile(caFile, certificates.ca);
      const server = await startFakeChatServer(
        (_request, response) => {
          beginEventStream(response);
          response.end(`${chunkEvent({ content: 'over TLS' }, 'stop')}data: [DONE]\n\n`);
        },
        { tls: certificates },
      );
      onTestFinished(() => server.close());

      const [trusting, untrusting] = await Promise.all([
        turnInChild(server.baseUrl, { NODE_EXTRA_CA_CERTS: caFile }),
        turnInChild(server.baseUrl, {}),
      ]);
      expect(trusting).toEqual({
        events: [
          { type: 'text_delta', delta: 'over TLS' },
          { type: 'done', stopReason: 'stop' },
        ],
        error: null,
        undiciLoaded: false,
      });
      expect(untrusting).toMatchObject({
        events: [],
        error: 'cannot reach Local: unable to verify the first certificate (UNABLE_TO_VERIFY_LEAF_SIGNATURE)',
      });
    },
  );
});
