import { afterEach, describe, expect, it } from 'vitest';
import { err, ok } from 'neverthrow';
import { SessionControl, type SessionControlEvent, type SessionControlService } from '@pi/coordinator-api';
import { createSessionControl, type SessionControlSide } from '@pi/host-coordinator';
import { ServiceRegistry, type CallerIdentity } from '@pi/remote';
import { TRANSPORTS, eventually, serveHost, type HostTransport } from '@pi/test-support';
import { createRpcClient, createRpcHost, type RpcClient, type RpcHost } from '@pi/transport-trpc';

/** Who each token is, as the coordinator's authentication says: two sessions' upstream connections and the user. */
const CALLERS: Readonly<Record<string, CallerIdentity>> = {
  's-1': { principal: 'session:s-1', claims: { kind: 'session', sessionId: 's-1', workspaceId: 'w-1' } },
  's-2': { principal: 'session:s-2', claims: { kind: 'session', sessionId: 's-2', workspaceId: 'w-1' } },
  user: { principal: 'local-user', claims: {} },
};

interface Connected {
  readonly remote: SessionControlService;
  readonly heard: SessionControlEvent[];
}

describe.each(TRANSPORTS)('SessionControl as the coordinator serves it, over %s', (kind) => {
  let host: RpcHost | undefined;
  let served: HostTransport | undefined;
  const clients: RpcClient[] = [];
  afterEach(async () => {
    for (const client of clients.splice(0)) client.close();
    host?.close();
    await served?.close();
  });

  async function serve(): Promise<{
    control: SessionControlSide;
    connect: (token: string) => Promise<Connected>;
  }> {
    const control = createSessionControl();
    const registry = new ServiceRegistry();
    registry.provide(SessionControl, control.service);
    host = createRpcHost({
      registry,
      authenticate: (params) => {
        const caller = CALLERS[params?.['token'] ?? ''];
        return caller === undefined ? err('Wrong token') : ok(caller);
      },
      keepAlive: false,
    });
    const transport = (served = await serveHost(kind, host));
    const connect = async (token: string): Promise<Connected> => {
      const client = createRpcClient({ socketFactory: transport.socketFactory, connectionParams: { token } });
      clients.push(client);
      const remote = await client.use(SessionControl);
      const heard: SessionControlEvent[] = [];
      remote.events.subscribe((event) => heard.push(event));
      return { remote, heard };
    };
    return { control, connect };
  }

  /** Every connection has had all sent before this (a state change after it, on each connection in order). */
  async function allDelivered(control: SessionControlSide, connections: readonly Connected[], marker: string) {
    control.setReplicas([marker]);
    await eventually(() => connections.every(({ remote }) => remote.state.value.replicas.includes(marker)));
  }

  it('a stop reaches only the connections of the session it names; another session and the user hear none', async () => {
    const { control, connect } = await serve();
    const first = await connect('s-1');
    const firstAgain = await connect('s-1');
    const second = await connect('s-2');
    const user = await connect('user');
    control.askToStop('s-1');
    control.askToStop('s-elsewhere');
    await allDelivered(control, [first, firstAgain, second, user], 'wss://marker:1/');
    expect(first.heard).toEqual([{ type: 'stop', sessionId: 's-1' }]);
    expect(firstAgain.heard).toEqual([{ type: 'stop', sessionId: 's-1' }]);
    expect(second.heard).toEqual([]);
    expect(user.heard).toEqual([]);

    control.askToStop('s-2');
    await allDelivered(control, [first, firstAgain, second, user], 'wss://marker:2/');
    expect(second.heard).toEqual([{ type: 'stop', sessionId: 's-2' }]);
    expect([first.heard.length, firstAgain.heard.length, user.heard.length]).toEqual([1, 1, 0]);
  });

  it('every connection is told where the replicas serve, in URL order, and a list that did not change is not sent again', async () => {
    const { control, connect } = await serve();
    const session = await connect('s-1');
    const user = await connect('user');
    expect(session.remote.state.value).toEqual({ replicas: [] });
    control.setReplicas(['wss://b:7443/', 'wss://a:7443/']);
    await eventually(
      () => session.remote.state.value.replicas.length === 2 && user.remote.state.value.replicas.length === 2,
    );
    expect(session.remote.state.value).toEqual({ replicas: ['wss://a:7443/', 'wss://b:7443/'] });
    expect(user.remote.state.value).toEqual(session.remote.state.value);
    const revision = session.remote.state.revision;
    control.setReplicas(['wss://a:7443/', 'wss://b:7443/']);
    await allDelivered(control, [session, user], 'wss://c:7443/');
    // One change since: the marker, not the list given again in another order.
    expect(session.remote.state.revision).toBe(revision + 1);
  });
});
