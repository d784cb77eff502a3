import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A CA made for one test, and a server certificate it signed for 127.0.0.1 and localhost (PEM). */
export interface TestCertificates {
  readonly ca: string;
  readonly cert: string;
  readonly key: string;
  /** Another CA, which signed nothing here: a client that trusts only it must refuse the server. */
  readonly otherCa: string;
}

const NEW_EC_KEY = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];

/** Makes the certificates with the openssl program (EC P-256, valid one day), in a folder removed afterwards. */
export async function makeTestCertificates(): Promise<TestCertificates> {
  const folder = await mkdtemp(join(tmpdir(), 'pi-tls-'));
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: folder, stdio: 'pipe' });
  try {
    for (const name of ['ca', 'other-ca'])
      openssl(
        'req',
        '-x509',
        ...NEW_EC_KEY,
        '-days',
        '1',
        '-subj',
        `/CN=pi test ${name}`,
        '-keyout',
        `${name}.key`,
        '-out',
        `${name}.pem`,
      );
    openssl('req', ...NEW_EC_KEY, '-subj', '/CN=localhost', '-keyout', 'server.key', '-out', 'server.csr');
    await writeFile(join(folder, 'server.ext'), 'subjectAltName = IP:127.0.0.1, DNS:localhost\n');
    openssl(
      'x509',
      '-req',
      '-in',
      'server.csr',
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-days',
      '1',
      '-extfile',
      'server.ext',
      '-out',
      'server.pem',
    );
    const read = (file: string) => readFile(join(folder, file), 'utf8');
    return {
      ca: await read('ca.pem'),
      cert: await read('server.pem'),
      key: await read('server.key'),
      otherCa: await read('other-ca.pem'),
    };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
