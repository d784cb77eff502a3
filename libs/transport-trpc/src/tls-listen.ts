import { readFile } from 'node:fs/promises';
import { err, ok, type Result } from 'neverthrow';
import type { RpcHost } from './rpc-host';
import { listenWebSocket, type WebSocketListener } from './websocket-server';

/** A program's `--listen HOST:PORT --tls-cert FILE --tls-key FILE`. */
export interface TlsListenFiles {
  readonly host: string;
  readonly port: number;
  /** PEM files, read when the program starts listening. */
  readonly certFile: string;
  readonly keyFile: string;
}

/** Serves a host on TCP over TLS with the certificate and key read from their files; a failure is one line. */
export async function listenTlsFromFiles(
  host: RpcHost,
  listen: TlsListenFiles,
): Promise<Result<WebSocketListener, string>> {
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
