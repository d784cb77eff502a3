import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkJson, InteractionBroker, ServiceRegistry } from '@pi/remote';
import {
  Ask,
  Catalog,
  Index,
  Probe,
  Vault,
  createCatalog,
  createIndex,
  createProbe,
  eventually,
} from '@pi/test-support';
import { createRpcHost, listenWebSocket, tokenAuthentication, type WebSocketListener } from '@pi/transport-trpc';
import { parseCliOptions } from '../src/cli-options';
import { runCli } from '../src/run-cli';

const TOKEN = 'cli-token';
let listener: WebSocketListener | undefined;
let directory: string | undefined;

afterEach(async () => {
  await listener?.close();
  if (directory !== undefined) await rm(directory, { recursive: true, force: true });
});

/** A host with fixture services on a real Unix socket, the way `--socket` + $PI_TOKEN reach one. */
async function serve(): Promise<string> {
  directory = await mkdtemp(join(tmpdir(), 'pi-cli-'));
  const registry = new ServiceRegistry();
  registry.provide(Catalog, createCatalog());
  registry.provide(Probe, createProbe());
  registry.provide(Index, createIndex());
  registry.provide(Vault, { secret: () => 'local only' });
  const broker = new InteractionBroker();
  broker.declare(Ask);
  const host = createRpcHost({
    registry,
    broker,
    authenticate: tokenAuthentication(TOKEN, { principal: 'cli', claims: {} }),
  });
  const socketPath = join(directory, 'host.sock');
  listener = (await listenWebSocket(host, { socketPath }))._unsafeUnwrap();
  return socketPath;
}

/** Runs one `pi` command line in this process; `interrupt` stands for Ctrl-C. */
async function pi(socketPath: string, argv: string[], interrupt = new AbortController(), token = TOKEN) {
  const out: string[] = [];
  const err: string[] = [];
  const options = parseCliOptions(['--socket', socketPath, ...argv], '/')._unsafeUnwrap();
  const code = await runCli(options, {
    io: { out: (line) => out.push(line), err: (line) => err.push(line) },
    env: { PI_TOKEN: token },
    interrupted: interrupt.signal,
  });
  return { code, out, err };
}

describe('pi commands against a host', () => {
  it('services lists methods as signatures, state, events and interactions; --json is the description', async () => {
    const socket = await serve();
    const human = await pi(socket, ['services']);
    expect(human.code).toBe(0);
    expect(human.out).toEqual([
      'catalog',
      '  select({ provider, modelId }): void',
      '  cycleThinking(): void',
      '  refresh(): integer',
      '  state state: { selected, thinkingLevel, refresh }',
      '  events events: { type: "selected", model } | { type: "refreshed", count }',
      'index',
      '  start(string): reference',
      '      wait(): { status, indexed }',
      '      cancel(): void',
      '      advance(integer): void',
      '      state progress: { status, indexed }',
      'probe',
      '  echo(any): any',
      '  nothing(): void',
      '  fail(string, string): void',
      '  crash(string): void',
      '  block(string): string',
      '  whoAmI(): { clientId, principal }',
      '  badResult(): number',
      'interaction ask: { question, options } → { outcome: "selected", index } | { outcome: "cancelled" }',
    ]);
    const json = await pi(socket, ['services', '--json']);
    const description = JSON.parse(json.out.join(''));
    expect(checkJson(description).isOk()).toBe(true);
    expect(description.services.map((service: { id: string }) => service.id)).toEqual(['catalog', 'index', 'probe']);
    const one = await pi(socket, ['services', 'catalog', '--json']);
    expect(JSON.parse(one.out.join(''))).toMatchObject({ id: 'catalog' });
    expect((await pi(socket, ['services', 'vault'])).code).toBe(5);
  });

  it('call prints results, and every failure as its code with its exit code', async () => {
    const socket = await serve();
    expect(await pi(socket, ['call', 'catalog.refresh'])).toEqual({ code: 0, out: ['2'], err: [] });
    expect(await pi(socket, ['call', 'probe.echo', '{"a":[1,"x"]}'])).toEqual({
      code: 0,
      out: ['{\n  "a": [\n    1,\n    "x"\n  ]\n}'],
      err: [],
    });
    expect(await pi(socket, ['call', '--json', 'probe.echo', '--', '-1'])).toEqual({
      code: 0,
      out: ['{"value":-1}'],
      err: [],
    });
    expect(await pi(socket, ['call', 'catalog.cycleThinking'])).toEqual({ code: 0, out: [], err: [] });
    const reference = await pi(socket, ['call', 'index.start', '"/src"']);
    expect(reference.code).toBe(0);
    expect(JSON.parse(reference.out[0] ?? '')).toEqual({ ref: expect.any(String) });
    expect(await pi(socket, ['call', 'probe.fail', '"quota_reached"', '"Over quota"'])).toEqual({
      code: 9,
      out: [],
      err: ['pi: quota_reached: Over quota'],
    });
    expect((await pi(socket, ['call', 'probe.crash', '"secret detail"'])).err).toEqual([
      'pi: internal: Internal error',
    ]);
    expect((await pi(socket, ['call', 'catalog'])).code).toBe(2);
    expect((await pi(socket, ['call', 'vault.secret'])).code).toBe(5);
    expect((await pi(socket, ['call', 'catalog.select', '{"provider":1}'])).code).toBe(6);
    expect((await pi(socket, ['status'], undefined, 'wrong')).code).toBe(4);
  });

  it('Ctrl-C cancels a call in flight: cancelled, exit 7', async () => {
    const socket = await serve();
    const interrupt = new AbortController();
    const blocked = pi(socket, ['call', 'probe.block', '"x"'], interrupt);
    setTimeout(() => interrupt.abort(), 200);
    expect(await blocked).toMatchObject({ code: 7, err: ['pi: cancelled: The call was cancelled'] });
  });

  it('watch prints JSON lines until interrupted, then exits 0', async () => {
    const socket = await serve();
    const interrupt = new AbortController();
    const out: string[] = [];
    const options = parseCliOptions(['watch', 'catalog', '--socket', socket], '/')._unsafeUnwrap();
    const watching = runCli(options, {
      io: { out: (line) => out.push(line), err: () => undefined },
      env: { PI_TOKEN: TOKEN },
      interrupted: interrupt.signal,
    });
    await eventually(() => out.length === 1);
    await pi(socket, ['call', 'catalog.refresh']);
    await eventually(() => out.length === 4);
    interrupt.abort();
    expect(await watching).toBe(0);
    expect(out.map((line) => JSON.parse(line).kind)).toEqual(['snapshot', 'state', 'state', 'event']);
    expect(JSON.parse(out[3] ?? '')).toEqual({
      kind: 'event',
      seq: 3,
      stream: 'events',
      event: { type: 'refreshed', count: 2 },
    });
  });

  it('status over an address: no session file, the connection and the services', async () => {
    const socket = await serve();
    const status = await pi(socket, ['status', '--json']);
    expect(JSON.parse(status.out[0] ?? '')).toEqual({
      session: null,
      connection: 'connected',
      heartbeat: { idleMs: 5000, timeoutMs: 3000 },
      services: ['catalog', 'index', 'probe'],
    });
  });

  it('--socket without $PI_TOKEN is a usage error', async () => {
    const options = parseCliOptions(['status', '--socket', '/nowhere'], '/')._unsafeUnwrap();
    const err: string[] = [];
    const code = await runCli(options, {
      io: { out: () => undefined, err: (line) => err.push(line) },
      env: {},
      interrupted: new AbortController().signal,
    });
    expect({ code, err }).toEqual({ code: 2, err: ['pi: --socket and --url need the host token in $PI_TOKEN'] });
  });
});
