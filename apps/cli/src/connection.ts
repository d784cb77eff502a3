import { resolve } from 'node:path';
import { err, ok, type Result } from 'neverthrow';
import type { ClientBehaviour, ConnectOptions } from '@pi/client';
import type { ConnectionFlags } from './cli-options';

/** The flags as `connect()` options: an address with the token from $PI_TOKEN, or the session of an id or directory. */
export function connectOptionsOf(
  flags: ConnectionFlags,
  env: NodeJS.ProcessEnv,
  behaviour: ClientBehaviour,
): Result<ConnectOptions, string> {
  if (flags.socket !== undefined || flags.url !== undefined) {
    const token = env['PI_TOKEN'];
    if (token === undefined || token === '') return err('--socket and --url need the host token in $PI_TOKEN');
    return ok(
      flags.socket !== undefined
        ? { ...behaviour, socketPath: resolve(flags.socket), token }
        : { ...behaviour, url: flags.url as string, token },
    );
  }
  return ok({
    ...behaviour,
    cwd: resolve(flags.cwd),
    ...(flags.session === undefined ? {} : { session: flags.session }),
    ...(flags.dataDir === undefined ? {} : { dataDir: resolve(flags.dataDir) }),
  });
}
