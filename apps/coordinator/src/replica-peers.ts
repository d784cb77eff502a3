import type { ReplicaRegistry } from '@pi/session-repo';

/** How often a replica says again that it serves; one not heard for `FRESH_MS` is no longer handed to sessions. */
export const HEARTBEAT_MS = 10_000;
export const FRESH_MS = 30_000;

/** The other replicas' URLs, as last read from the shared records (and the `--replica` flags). */
export interface ReplicaPeers {
  others(): readonly string[];
  /** Stops the heartbeat and withdraws this replica's URL. */
  stop(): Promise<void>;
}

/**
 * A replica on shared records (their `registry`; none when no other coordinator shares them, SQLite's) announces where
 * it serves (`ownUrl`, its `wss:` listener) and learns where the others do, so the sessions it starts can reconnect to any of them (docs/scaling.md). A URL with a wildcard host names no
 * address another host can dial, so it is not announced. The `--replica` flags are kept, first. `publish` hears
 * the others after each heartbeat (the sessions connected here are told them: they know this one already).
 */
export async function replicaPeers(
  registry: ReplicaRegistry | undefined,
  ownUrl: string | undefined,
  given: readonly string[],
  log: (line: string) => void,
  publish: (others: readonly string[]) => void = () => undefined,
): Promise<ReplicaPeers> {
  let learned: readonly string[] = [];
  const announced = ownUrl !== undefined && !namesWildcardHost(ownUrl) ? ownUrl : undefined;
  const others = () => [...new Set([...given, ...learned])];
  publish(others());
  if (registry === undefined) return { others, stop: async () => undefined };
  let said: string | undefined;
  const say = (line: string | undefined) => {
    if (line !== undefined && line !== said) log(line);
    said = line;
  };
  const beat = async () => {
    if (announced !== undefined) {
      const done = await registry.announce(announced);
      if (done.isErr()) return say(`cannot announce ${announced} to the other replicas: ${done.error.message}`);
    }
    const listed = await registry.list(FRESH_MS);
    if (listed.isErr()) return say(`cannot read where the other replicas serve: ${listed.error.message}`);
    learned = listed.value.filter((url) => url !== announced);
    publish(others());
    say(undefined);
  };
  await beat();
  const timer = setInterval(() => void beat(), HEARTBEAT_MS);
  timer.unref();
  return {
    others,
    stop: async () => {
      clearInterval(timer);
      if (announced !== undefined) await registry.withdraw(announced);
    },
  };
}

/**
 * Whether a listener's URL names the wildcard address (every interface: `0.0.0.0`, `::`) rather than one host, in any
 * spelling `--listen` accepts: with or without a port or path, `0`, `[0:0::0]`, and `::` unbracketed as a listener
 * writes it (`wss://:::7443/`, which is no URL at all).
 */
export function namesWildcardHost(url: string): boolean {
  const written = /^wss?:\/\/([^/?#]*)/i.exec(url)?.[1];
  if (written === undefined) return false;
  const authority = written.slice(written.lastIndexOf('@') + 1);
  const bracketed = /^\[(.*)\](?::\d*)?$/.exec(authority);
  const host = bracketed?.[1] ?? authority.replace(/:\d+$/, '');
  // The URL parser spells each address one way: every form of the IPv4 wildcard as 0.0.0.0, of the IPv6 one as [::].
  const parsed = host.includes(':') ? hostnameOf(`[${host}]`) : hostnameOf(host);
  return parsed === '0.0.0.0' || parsed === '[::]';
}

function hostnameOf(host: string): string | undefined {
  try {
    return new URL(`ws://${host}/`).hostname;
  } catch {
    return undefined;
  }
}
