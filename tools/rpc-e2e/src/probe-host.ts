import { ServiceRegistry } from '@pi/remote';
import { createRpcHost, tokenAuthentication, type RpcHost } from '@pi/transport-trpc';
import { Probe, createProbe, type ProbeLog } from '@pi/test-support';

/** A host serving only the probe service to clients with `token`, without keep-alive pings, and what the probe saw. */
export function probeHost(token: string): { host: RpcHost; log: ProbeLog } {
  const registry = new ServiceRegistry();
  const probe = createProbe();
  registry.provide(Probe, probe);
  const host = createRpcHost({
    registry,
    authenticate: tokenAuthentication(token, { principal: 'user', claims: {} }),
    keepAlive: false,
  });
  return { host, log: probe.log };
}
