import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SessionDirectory } from '@pi/session-directory';
import { eventually } from '@pi/test-support';
import { createRpcClient, webSocketFactory, type RpcClient } from '@pi/transport-trpc';
import { makeTestCertificates } from '@pi/transport-trpc/testing';
import {
  PROCESS_TEST_TIMEOUT_MS,
  createCoordinatorSandbox,
  readText,
  type CoordinatorSandbox,
} from './coordinator-sandbox';

const LISTENING_TLS = /^pi-coordinator: listening on (wss:\/\/127\.0\.0\.1:\d+\/) too$/m;

let box: CoordinatorSandbox | undefined;
const clients: RpcClient[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  await box?.cleanUp();
  box = undefined;
}, PROCESS_TEST_TIMEOUT_MS);

function connect(url: string, token: string, ca: string): RpcClient {
  const client = createRpcClient({
    socketFactory: webSocketFactory({ url }, { ca }),
    connectionParams: { token },
    reconnect: false,
  });
  clients.push(client);
  return client;
}

describe('pi-coordinator --listen over TLS', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('serves wss: beside its socket: the user token from its connection file admits, another token does not', async () => {
    box = await createCoordinatorSandbox();
    const certificates = await makeTestCertificates();
    const [cert, key] = [join(box.root, 'server.pem'), join(box.root, 'server.key')];
    await writeFile(cert, certificates.cert);
    await writeFile(key, certificates.key, { mode: 0o600 });
    const coordinator = box.runInForeground(['--listen', '127.0.0.1:0', '--tls-cert', cert, '--tls-key', key]);
    await eventually(() => LISTENING_TLS.test(coordinator.stdout()), 8000);
    const url = LISTENING_TLS.exec(coordinator.stdout())?.[1] ?? '';
    const { token } = JSON.parse(readText(box.files.connectionFile)) as { token: string };

    const directory = await connect(url, token, certificates.ca).use(SessionDirectory);
    expect(directory.state.value.sessions).toEqual([]);
    const stranger = connect(url, 'not-the-token', certificates.ca);
    await eventually(() => stranger.connection.value.status === 'disconnected', 8000);
  });

  it('refuses --listen without both TLS files, and a certificate file it cannot read, in one line', async () => {
    box = await createCoordinatorSandbox();
    expect(await box.coordinator(['run', '--listen', '127.0.0.1:7443'])).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'pi-coordinator: --listen, --tls-cert and --tls-key go together: a TCP listener is always TLS (see --help)\n',
    });
    const missing = join(box.root, 'none.pem');
    const run = await box.coordinator(['run', '--listen', '127.0.0.1:0', '--tls-cert', missing, '--tls-key', missing]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(new RegExp(`^pi-coordinator: Cannot read --tls-cert ${missing}: .+\\n$`));
  });

  it('enroll says in one line that no coordinator runs to enroll with, and writes no credential file', async () => {
    box = await createCoordinatorSandbox();
    const out = join(box.root, 'credential.json');
    expect(await box.coordinator(['enroll', '--cwd', '/srv/project', '--out', out])).toEqual({
      code: 1,
      stdout: '',
      stderr: 'pi-coordinator: No coordinator runs here: start one first (pi-coordinator start)\n',
    });
    expect(readText(out)).toBe('');
  });
});
