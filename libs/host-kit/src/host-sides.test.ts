import { afterEach, describe, expect, it } from 'vitest';
import { BACKGROUND_CONTEXT } from '@pi/context';
import type { ConsumingPluginContext, Facet, FleetPluginScope } from '@pi/plugin-api';
import {
  Ask,
  Catalog,
  TRANSPORTS,
  Vault,
  createCatalog,
  eventually,
  serveHost,
  type HostTransport,
} from '@pi/test-support';
import { createRpcClient, tokenAuthentication, type RpcClient } from '@pi/transport-trpc';
import { consumingContext } from './consuming-side';
import type { LoadedFacet } from './facet-loader';
import { ProvidingSide } from './providing-side';
import { runFacets, type RunnableFacet, type RunningFacets } from './run-facets';
import { throwEffectFailure } from './testing';

const TOKEN = 'kit-token';
const providing = (id: string, facet: Facet<'coordinator'>): LoadedFacet<'coordinator'> => ({
  id,
  config: null,
  facet,
  module: `test:${id}`,
});
const consuming = (
  id: string,
  facet: (context: ConsumingPluginContext) => void | Promise<void>,
): RunnableFacet<ConsumingPluginContext> => ({ id, config: null, facet });

/** Asks until the answer is not `no_handler` (a handler's declaration reaches the host asynchronously). */
async function askWhenHandled(side: ProvidingSide): Promise<unknown> {
  for (let attempt = 0; attempt < 500; attempt++) {
    try {
      return await side.broker.request(Ask, { question: 'which?', options: ['a', 'b'] }, BACKGROUND_CONTEXT);
    } catch (error) {
      if ((error as { code?: string }).code !== 'no_handler') throw error;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }
  throw new Error('No handler was declared');
}

/** Asks until the host has no handler any more, and returns that error. */
async function askUntilUnhandled(side: ProvidingSide): Promise<unknown> {
  for (let attempt = 0; attempt < 500; attempt++) {
    const outcome = await side.broker
      .request(Ask, { question: 'anyone?', options: [] }, BACKGROUND_CONTEXT, { timeoutMs: 200 })
      .catch((error: unknown) => error);
    if ((outcome as { code?: string }).code === 'no_handler') return outcome;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error('The handler was never removed');
}

/** These tests use the coordinator's facet type for a bare providing host: its fleet authority is never reached. */
const NO_FLEET = {} as FleetPluginScope;

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function providingHost(kind: (typeof TRANSPORTS)[number], facets: LoadedFacet<'coordinator'>[]) {
  const side = new ProvidingSide();
  const running = (
    await runFacets(
      facets,
      (scope, facet) => ({ ...side.contextFor(scope, facet.id, facet.config), fleet: NO_FLEET }),
      throwEffectFailure,
    )
  )._unsafeUnwrap();
  const rpc = side.expose({
    authenticate: tokenAuthentication(TOKEN, { principal: 'kit', claims: {} }),
    keepAlive: false,
  });
  const transport: HostTransport = await serveHost(kind, rpc);
  cleanups.push(async () => {
    rpc.close();
    await transport.close();
    await running.stop();
  });
  return { side, transport };
}

async function consumingHost(
  transport: HostTransport,
  facets: RunnableFacet<ConsumingPluginContext>[],
): Promise<{ client: RpcClient; running: RunningFacets }> {
  const client = createRpcClient({ socketFactory: transport.socketFactory, connectionParams: { token: TOKEN } });
  await client.whenConnected();
  const running = (
    await runFacets(
      facets,
      (scope, facet) => consumingContext(scope, facet.id, facet.config, client),
      throwEffectFailure,
    )
  )._unsafeUnwrap();
  cleanups.push(async () => {
    await running.stop();
    client.close();
  });
  return { client, running };
}

describe.each(TRANSPORTS)('the host kit over %s', (kind) => {
  it('a presentation facet uses a service a providing facet provided, and answers its interactions', async () => {
    const { side, transport } = await providingHost(kind, [
      providing('@t/catalog', (context) => context.provide(Catalog, createCatalog())),
    ]);
    let level: string | undefined;
    await consumingHost(transport, [
      consuming('@t/picker', async (context) => {
        const catalog = await context.use(Catalog);
        level = catalog.state.value.thinkingLevel;
        context.interactions.handle(Ask, async (request) => ({
          outcome: 'selected' as const,
          index: request.options.length - 1,
        }));
      }),
    ]);

    expect(level).toBe('high');
    expect(await askWhenHandled(side)).toEqual({ outcome: 'selected', index: 1 });
  });

  it('disposing a presentation plugin releases its proxies and removes its interaction handlers', async () => {
    const { side, transport } = await providingHost(kind, [
      providing('@t/catalog', (context) => context.provide(Catalog, createCatalog())),
    ]);
    const { client, running } = await consumingHost(transport, [
      consuming('@t/picker', async (context) => {
        await context.use(Catalog);
        await context.use(Catalog);
        context.interactions.handle(Ask, async () => ({ outcome: 'cancelled' as const }));
      }),
    ]);
    expect(client.activeServices).toBe(1);
    await askWhenHandled(side);

    await running.stop();

    await eventually(() => client.activeServices === 0);
    expect(await askUntilUnhandled(side)).toMatchObject({ code: 'no_handler' });
  });
});

describe('the providing side', () => {
  it('passes a projection and its key through to the state and events a facet makes', async () => {
    const side = new ProvidingSide();
    const projectFor = (value: number) => value;
    const projectionKey = () => 'everyone';
    const made: unknown[] = [];
    const running = (
      await runFacets(
        [
          providing('@t/keyed', (context) => {
            made.push(context.remoteState(0, { projectFor, projectionKey }));
            made.push(context.remoteEvents<number>({ projectFor, projectionKey }));
          }),
        ],
        (scope, facet) => ({ ...side.contextFor(scope, facet.id, facet.config), fleet: NO_FLEET }),
        throwEffectFailure,
      )
    )._unsafeUnwrap();
    expect(made).toEqual([
      expect.objectContaining({ projectFor, projectionKey }),
      expect.objectContaining({ projectFor, projectionKey }),
    ]);
    await running.stop();
  });

  it('refuses a service provided after the RPC surface was generated', async () => {
    const side = new ProvidingSide();
    let provideLate: (() => void) | undefined;
    const running = (
      await runFacets(
        [providing('@t/late', (context) => void (provideLate = () => context.provide(Catalog, createCatalog())))],
        (scope, facet) => ({ ...side.contextFor(scope, facet.id, facet.config), fleet: NO_FLEET }),
        throwEffectFailure,
      )
    )._unsafeUnwrap();
    const rpc = side.expose({
      authenticate: tokenAuthentication(TOKEN, { principal: 'kit', claims: {} }),
      keepAlive: false,
    });
    expect(() => provideLate?.()).toThrow(/provide services during setup or activation/);
    rpc.close();
    await running.stop();
  });

  it('a throwing connect callback is recorded against its plugin and the others still run', async () => {
    const side = new ProvidingSide();
    const seen: string[] = [];
    const running = (
      await runFacets(
        [
          providing(
            '@t/bad',
            (context) =>
              void context.onClientConnect(() => {
                throw new Error('nope');
              }),
          ),
          providing('@t/good', (context) => void context.onClientConnect((id) => void seen.push(id))),
        ],
        (scope, facet) => ({ ...side.contextFor(scope, facet.id, facet.config), fleet: NO_FLEET }),
        throwEffectFailure,
      )
    )._unsafeUnwrap();
    const rpc = side.expose({
      authenticate: tokenAuthentication(TOKEN, { principal: 'kit', claims: {} }),
      keepAlive: false,
    });
    const transport = await serveHost('loopback', rpc);
    const client = createRpcClient({ socketFactory: transport.socketFactory, connectionParams: { token: TOKEN } });
    await client.whenConnected();

    await eventually(() => seen.length === 1);
    expect(side.failures.list()).toEqual([{ owner: '@t/bad', message: 'onClientConnect callback threw: nope' }]);
    client.close();
    rpc.close();
    await transport.close();
    await running.stop();
  });
});

describe('services between plugins', () => {
  async function run(facets: LoadedFacet<'coordinator'>[]) {
    const side = new ProvidingSide();
    const result = await runFacets(
      facets,
      (scope, facet) => ({ ...side.contextFor(scope, facet.id, facet.config), fleet: NO_FLEET }),
      throwEffectFailure,
    );
    return { side, result };
  }
  const vault = { secret: () => 'shh' };

  it('use of a service no plugin provides names the plugin and the service', async () => {
    const { result } = await run([providing('@t/reader', (context) => void context.use(Vault))]);
    expect(result._unsafeUnwrapErr().message).toContain(
      'Plugin "@t/reader" uses service "vault", which no plugin of this host provides',
    );
  });

  it('a second provider of a service is refused naming both plugins', async () => {
    const { result } = await run([
      providing('@t/first', (context) => context.provide(Vault, vault)),
      providing('@t/second', (context) => context.provide(Vault, vault)),
    ]);
    expect(result._unsafeUnwrapErr().message).toContain(
      'Plugin "@t/second" provides service "vault", which plugin "@t/first" already provides',
    );
  });

  it('tryUse gives the service when a plugin provides it and undefined when none does', async () => {
    const seen: unknown[] = [];
    const { result } = await run([
      providing('@t/early', (context) => void seen.push(context.tryUse(Vault))),
      providing('@t/provider', (context) => context.provide(Vault, vault)),
      providing('@t/late', (context) => void seen.push(context.tryUse(Vault)?.secret())),
    ]);
    expect(result.isOk()).toBe(true);
    expect(seen).toEqual([undefined, 'shh']);
    await result._unsafeUnwrap().stop();
  });

  it('onService calls back once the service is provided, also by a plugin later in the manifest', async () => {
    const heard: string[] = [];
    const { side, result } = await run([
      providing(
        '@t/waiting',
        (context) => void context.onService(Vault, (found) => heard.push(`early ${found.secret()}`)),
      ),
      providing('@t/provider', (context) => context.provide(Vault, vault)),
      providing(
        '@t/after',
        (context) => void context.onService(Vault, (found) => heard.push(`late ${found.secret()}`)),
      ),
      providing(
        '@t/broken',
        (context) =>
          void context.onService(Vault, () => {
            throw new Error('cannot use it');
          }),
      ),
    ]);
    expect(heard).toEqual(['early shh', 'late shh']);
    expect(side.failures.list()).toEqual([
      { owner: '@t/broken', message: 'onService("vault") callback threw: cannot use it' },
    ]);
    await result._unsafeUnwrap().stop();
  });

  it('an effect runs once the plugin is active with a signal that aborts when the plugin is disposed', async () => {
    const log: string[] = [];
    const { result } = await run([
      providing('@t/watcher', (context) => {
        context.effect((signal) => {
          log.push('watching');
          signal.addEventListener('abort', () => log.push('stopped watching'));
        });
        context.onActivate(() => void log.push('active'));
      }),
    ]);
    expect(log).toEqual(['active', 'watching']);
    await result._unsafeUnwrap().stop();
    expect(log).toEqual(['active', 'watching', 'stopped watching']);
  });
});

describe('running facets', () => {
  it('rolls back in reverse order when a facet throws, naming the plugin and phase', async () => {
    const log: string[] = [];
    const side = new ProvidingSide();
    const facet = (id: string, fail = false): LoadedFacet<'coordinator'> =>
      providing(id, (context) => {
        context.onDispose(() => void log.push(`dispose ${id}`));
        if (fail) throw new Error('cannot start');
      });
    const result = await runFacets(
      [facet('@t/a'), facet('@t/b'), facet('@t/c', true)],
      (scope, loadedFacet) => ({ ...side.contextFor(scope, loadedFacet.id, null), fleet: NO_FLEET }),
      throwEffectFailure,
    );
    expect(result._unsafeUnwrapErr()).toMatchObject({
      code: 'plugin_failed',
      message: expect.stringMatching(/"@t\/c" failed during setup: cannot start/),
    });
    expect(log).toEqual(['dispose @t/c', 'dispose @t/b', 'dispose @t/a']);
  });
});
