import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { err, ok, type Result } from 'neverthrow';
import type { SocketAcceptor } from './server-socket';
import { listenWebSocket, type WebSocketListener } from './websocket-server';

/** A program's `--listen HOST:PORT --tls-cert FILE --tls-key FILE`. */
export interface TlsListenFiles {
  readonly host: string;
  readonly port: number;
  /** PEM files, read when the program starts listening. */
  readonly certFile: string;
  readonly keyFile: string;
}

/**
 * A program's `--listen`, `--tls-cert` and `--tls-key` flags, which go together: a TCP listener for other hosts is
 * never plain text. `example` is the address the error suggests (each program has its own default port).
 */
export function parseTlsListenFlags(
  flags: { readonly listen?: string; readonly certFile?: string; readonly keyFile?: string },
  example: string,
): Result<TlsListenFiles | undefined, string> {
  const { listen, certFile, keyFile } = flags;
  if (listen === undefined && certFile === undefined && keyFile === undefined) return ok(undefined);
  if (listen === undefined || certFile === undefined || keyFile === undefined)
    return err('--listen, --tls-cert and --tls-key go together: a TCP listener is always TLS (see --help)');
  const match = /^(.+):(\d{1,5})$/.exec(listen);
  const port = Number(match?.[2]);
  if (match === null || port > 65535) return err(`--listen takes HOST:PORT, such as ${example}: not "${listen}"`);
  return ok({ host: match[1] ?? '', port, certFile: resolve(certFile), keyFile: resolve(keyFile) });
}

/** Serves a host on TCP over TLS with the certificate and key read from their files; a failure is one line. */
export async function listenTlsFromFiles(
  host: SocketAcceptor,
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
