import { z } from 'zod';

/**
 * The version handshake of `$rpc.hello` (issue 22). The client sends the protocol it speaks; the host answers with
 * the client's id, the protocol it speaks, and what it runs (its plugin API and its plugins' ids and API versions).
 * Either end refuses a peer of another protocol major with `version_mismatch` and one line naming both versions,
 * so a daemon that outlived an upgrade is found at the handshake rather than at the first call that breaks.
 */

/** The protocol this build speaks, "major.minor": a minor adds frames or fields, a major changes or removes them. */
export const PROTOCOL_VERSION = '1.2';

/** What a host answering without a protocol (one built before the handshake) speaks. */
export const UNDECLARED_PROTOCOL = '1.0';

/** The error code (and the disconnect reason) of a refused handshake; a client does not retry it. */
export const VERSION_MISMATCH = 'version_mismatch';

/**
 * One plugin a host runs; `apiVersion` is the plugin API version its package says it was built for (`pi.apiVersion`),
 * where the host knows it. A client compares it with its own half of the same plugin.
 */
export interface HelloPlugin {
  readonly id: string;
  readonly apiVersion?: string;
}

/** What a host says about itself in its hello answer; the transport carries it and checks only the protocol. */
export interface HostHello {
  /** The plugin API the host provides, "major.minor". */
  readonly pluginApi: string;
  readonly plugins: readonly HelloPlugin[];
}

/** `$rpc.hello`'s answer. */
export interface HelloAnswer {
  readonly clientId: string;
  readonly protocol: string;
  readonly pluginApi?: string;
  readonly plugins?: readonly HelloPlugin[];
}

const version = z.string().regex(/^\d{1,6}\.\d{1,6}$/);

const helloInput = z.object({ protocol: version });

/**
 * `$rpc.hello`'s input: the client's protocol, or undefined when it declares none (a stock tRPC client, a pi built
 * before the handshake). Anything else is ignored as before the handshake, when the hello took no input: never
 * refused. Undefined rather than null: tRPC types the input as what this returns, and a stock client typed by a
 * host's router may then call `hello.mutate()` with no argument, as it could before.
 */
export function readHelloInput(raw: unknown): { protocol: string } | undefined {
  const parsed = helloInput.safeParse(raw);
  return parsed.success ? { protocol: parsed.data.protocol } : undefined;
}

const answerSchema = z.object({
  clientId: z.string(),
  protocol: version.optional(),
  pluginApi: version.optional(),
  plugins: z.array(z.object({ id: z.string(), apiVersion: version.optional() })).optional(),
});

/** The answer as the client reads it: a host that declares no protocol speaks `UNDECLARED_PROTOCOL`. */
export function readHelloAnswer(data: unknown): HelloAnswer | undefined {
  const parsed = answerSchema.safeParse(data);
  if (!parsed.success) return undefined;
  const { protocol, ...rest } = parsed.data;
  return { ...rest, protocol: protocol ?? UNDECLARED_PROTOCOL };
}

/** Null when both speak the same protocol major; else the line that says who speaks what. */
export function protocolMismatch(host: string, client: string): string | null {
  if (majorOf(host) === majorOf(client)) return null;
  return `the host speaks pi protocol ${host}, this pi speaks ${client}`;
}

/** Protocol 1.2 added compact calls (compact-calls.ts): a host that speaks it reads them beside tRPC's messages. */
export function speaksCompactCalls(protocol: string): boolean {
  const [major = 0, minor = 0] = protocol.split('.').map(Number);
  return major > 1 || (major === 1 && minor >= 2);
}

function majorOf(version: string): string {
  return version.split('.')[0] ?? version;
}
