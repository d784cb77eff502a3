import { readFile } from 'node:fs/promises';
import { err, ok, type Result } from 'neverthrow';
import { listenWebSocket, type RpcHost, type WebSocketListener } from '@pi/transport-trpc';
import type { TlsListen } from './cli-options';

/** Serves the coordinator on TCP over TLS as well, with the certificate and key read from their files. */
export async function listenOverTls(host: RpcHost, listen: TlsListen): Promise<Result<WebSocketListener, string>> {
  const read = async (flag: string, file: string): Promise<Result<string, string>> => {
    try {
      return ok(await readFile(file, 'utf8'));
    } catch (error) {
      return err(`Cannot read ${flag} ${file}: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  const cert = await read('--tls-cert', listen.certFile);
  if (cert.isErr()) return err(cert.error);
  const key = await read('--tls-key', listen.keyFile);
  if (key.isErr()) return err(key.error);
  const listened = await listenWebSocket(host, {
    host: listen.host,
    port: listen.port,
    tls: { cert: cert.value, key: key.value },
  });
  return listened.isErr()
    ? err(`Cannot listen on ${listen.host}:${listen.port}: ${listened.error.message}`)
    : ok(listened.value);
}
