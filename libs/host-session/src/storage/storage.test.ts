import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import {
  Diagnostics,
  Storage,
  list,
  value,
  type CodingAgentSessionPluginContext,
  type JsonValue,
} from '@pi/plugin-api';
import { TRANSPORTS, eventually } from '@pi/test-support';
import { startTestSessionHost, type TestSessionHost } from '../testing';
import { storageFile } from './storage-file';

const COUNTER = value<number>('counter');
const NOTES = list<string>('notes', 'today');

const fixtures: TestSessionHost[] = [];
afterEach(async () => {
  await Promise.all(fixtures.splice(0).map((fixture) => fixture.close()));
});

/** A session running two plugins whose contexts the test holds, and a client's replica of the synced values. */
async function start(transport: (typeof TRANSPORTS)[number], directory?: string, ids = ['@t/one', '@t/two']) {
  const contexts = new Map<string, CodingAgentSessionPluginContext>();
  const fixture = await startTestSessionHost({
    transport,
    ...(directory === undefined ? {} : { directory }),
    facets: ids.map((id) => ({
      id,
      facet: (context: CodingAgentSessionPluginContext) => void contexts.set(id, context),
    })),
  });
  fixtures.push(fixture);
  const client = await fixture.connect();
  const synced = await client.use(Storage);
  const context = (id: string) => contexts.get(id) as CodingAgentSessionPluginContext;
  return { fixture, client, synced, context };
}

describe.each(TRANSPORTS)('bound storage over %s', (transport) => {
  it('syncs values to clients, latest wins, each under the plugin that wrote it', async () => {
    const { synced, context } = await start(transport);
    context('@t/one').store.set(COUNTER, 1);
    context('@t/one').store.set(COUNTER, 2);
    context('@t/two').store.set(COUNTER, 40);

    expect(context('@t/one').store.get(COUNTER)).toBe(2);
    expect(context('@t/two').store.get(COUNTER)).toBe(40);
    await eventually(() => synced.values.value.length === 2);
    expect(synced.values.value).toEqual([
      { plugin: '@t/one', namespace: 'counter', key: '', value: 2 },
      { plugin: '@t/two', namespace: 'counter', key: '', value: 40 },
    ]);
    context('@t/two').store.delete(COUNTER);
    await eventually(() => synced.values.value.length === 1);
    expect(context('@t/two').store.get(COUNTER)).toBeUndefined();
  });

  it('keeps lists in the session, appended in order, and never sends them to clients', async () => {
    const { synced, context } = await start(transport);
    context('@t/one').store.append(NOTES, 'first');
    context('@t/one').store.append(NOTES, 'second');
    context('@t/one').store.set(COUNTER, 1);
    expect(context('@t/one').store.items(NOTES)).toEqual(['first', 'second']);
    expect(context('@t/two').store.items(NOTES)).toEqual([]);
    await eventually(() => synced.values.value.length === 1);
    expect(JSON.stringify(synced.values.value)).not.toContain('first');
  });

  it('brings values and lists back when the session restarts', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'pi-storage-'));
    onTestFinished(() => rm(directory, { recursive: true, force: true }));
    const first = await start(transport, directory);
    first.context('@t/one').store.set(COUNTER, 7);
    first.context('@t/one').store.append(NOTES, 'kept');
    fixtures.splice(fixtures.indexOf(first.fixture), 1);
    await first.fixture.close();

    const second = await start(transport, directory);
    expect(second.context('@t/one').store.get(COUNTER)).toBe(7);
    expect(second.context('@t/one').store.items(NOTES)).toEqual(['kept']);
    expect(second.synced.values.value).toEqual([{ plugin: '@t/one', namespace: 'counter', key: '', value: 7 }]);
  });

  it("refuses pi's reserved namespaces to a third-party plugin with a clear error, and allows pi's own", async () => {
    const { context } = await start(transport, undefined, ['@t/third-party', '@pi/own']);
    expect(() => context('@t/third-party').store.set(value<number>('pi.counter'), 1)).toThrow(
      'Plugin "@t/third-party": storage namespace "pi.counter" is reserved for pi\'s built-in plugins (pi, pi.*); name your own',
    );
    expect(() => context('@t/third-party').store.append(list<number>('pi'), 1)).toThrow(/reserved/);
    context('@pi/own').store.set(value<number>('pi.counter'), 1);
    expect(context('@pi/own').store.get(value<number>('pi.counter'))).toBe(1);
  });

  it('refuses a value that is not strict JSON, and an address pi cannot store', async () => {
    const { context } = await start(transport);
    const odd = value<JsonValue>('odd');
    expect(() => context('@t/one').store.set(odd, { when: new Date() } as never)).toThrow(/must be strict JSON/);
    expect(() => context('@t/one').store.set(odd, 'x'.repeat(70_000))).toThrow(/at most 65536 bytes/);
    expect(() => value('Has Spaces')).toThrow(/must be lowercase letters/);
    expect(() => list('ok', 'bad key')).toThrow(/Storage key "bad key"/);
    expect(context('@t/one').store.get(odd)).toBeUndefined();
  });

  it('starts empty and reports a storage file that is not its own, instead of failing to start', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'pi-storage-'));
    onTestFinished(() => rm(directory, { recursive: true, force: true }));
    const first = await start(transport, directory);
    first.context('@t/one').store.set(COUNTER, 1);
    fixtures.splice(fixtures.indexOf(first.fixture), 1);
    await first.fixture.close();
    const file = storageFile(first.fixture.sessionFile);
    expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({ values: [{ plugin: '@t/one', value: 1 }] });
    await writeFile(file, 'not json');

    const second = await start(transport, directory);
    expect(second.context('@t/one').store.get(COUNTER)).toBeUndefined();
    const diagnostics = await second.client.use(Diagnostics);
    await eventually(() =>
      diagnostics.state.value.entries.some((entry) => entry.message.includes('not a session storage file')),
    );
  });
});
