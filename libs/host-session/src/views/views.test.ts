import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { TRANSPORTS, eventually, remoteErrorOf, type TransportKind } from '@pi/test-support';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestSessionHost, type TestSessionHost } from '../testing';
import { Panel, newPanelRecord, panelFacet, watchViews, type PanelRecord } from './views-testing';

const fixtures: TestSessionHost[] = [];
afterEach(async () => {
  await Promise.all(fixtures.splice(0).map((fixture) => fixture.close()));
});

async function start(transport: TransportKind, record: PanelRecord = newPanelRecord(), directory?: string) {
  const fixture = await startTestSessionHost({
    transport,
    facets: [{ id: 'panel', facet: panelFacet(record) }],
    ...(directory === undefined ? {} : { directory }),
  });
  fixtures.push(fixture);
  return { fixture, record };
}

async function attach(fixture: TestSessionHost) {
  const client = await fixture.connect();
  const panel = await client.use(Panel);
  const { replica, views } = await watchViews(client);
  return { client, panel, replica, views, id: await panel.whoami(BACKGROUND_CONTEXT) };
}

const counts = (replica: Awaited<ReturnType<typeof attach>>['replica']) =>
  replica.list().map((view) => [view.viewId, (view.state as { count: number }).count]);

describe.each(TRANSPORTS)('views over %s', (transport) => {
  it('syncs an originator view to its originator only, state changes included', async () => {
    const { fixture } = await start(transport);
    const a = await attach(fixture);
    const b = await attach(fixture);
    const viewId = await a.panel.open('originator', false, null, BACKGROUND_CONTEXT);
    await eventually(() => a.replica.get(viewId) !== undefined);
    expect(a.replica.get(viewId)).toMatchObject({ component: 'test.counter', to: [a.id], durable: false });

    await a.panel.set(viewId, 3, BACKGROUND_CONTEXT);
    await eventually(() => counts(a.replica)[0]?.[1] === 3);
    // B's own call proves its watch is current: it was sent nothing of A's view.
    await b.panel.whoami(BACKGROUND_CONTEXT);
    expect(b.replica.list()).toEqual([]);
    expect(b.views.open.value).toEqual([]);
  });

  it('hands a client message to the plugin with its sender, and refuses a bad one with a clear error', async () => {
    const { fixture, record } = await start(transport);
    const a = await attach(fixture);
    const b = await attach(fixture);
    const viewId = await a.panel.open('originator', false, null, BACKGROUND_CONTEXT);

    await a.views.message(viewId, { add: 2 }, BACKGROUND_CONTEXT);
    expect(record.messages).toEqual([{ viewId, add: 2, from: a.id }]);

    const bad = await remoteErrorOf(a.views.message(viewId, { add: 'two' }, BACKGROUND_CONTEXT));
    expect(bad.code).toBe('invalid_argument');
    expect(bad.message).toMatch(/does not fit view "test.counter" at add/);
    const notAddressed = await remoteErrorOf(b.views.message(viewId, { add: 1 }, BACKGROUND_CONTEXT));
    expect(notAddressed.code).toBe('unknown_view');
    expect((await remoteErrorOf(a.views.message('panel:nothing', { add: 1 }, BACKGROUND_CONTEXT))).code).toBe(
      'unknown_view',
    );
    expect(record.messages).toHaveLength(1);
  });

  it('close(result) resolves done with the result and takes the view from every client', async () => {
    const { fixture, record } = await start(transport);
    const a = await attach(fixture);
    const b = await attach(fixture);
    const viewId = await a.panel.open('all', false, null, BACKGROUND_CONTEXT);
    await eventually(() => b.replica.get(viewId) !== undefined);

    await a.panel.close(viewId, 'finished', BACKGROUND_CONTEXT);
    await eventually(() => record.ended.has(viewId));
    expect(record.ended.get(viewId)).toEqual({ result: 'finished' });
    await eventually(() => a.replica.list().length === 0 && b.replica.list().length === 0);
    expect((await remoteErrorOf(a.views.message(viewId, { add: 1 }, BACKGROUND_CONTEXT))).code).toBe('unknown_view');
  });

  it('shows a late joiner every view addressed to it, with its current state', async () => {
    const { fixture } = await start(transport);
    const a = await attach(fixture);
    const shared = await a.panel.open('all', false, null, BACKGROUND_CONTEXT);
    const own = await a.panel.open('originator', false, null, BACKGROUND_CONTEXT);
    await a.panel.set(shared, 7, BACKGROUND_CONTEXT);
    await a.panel.set(own, 1, BACKGROUND_CONTEXT);

    const late = await attach(fixture);
    expect(counts(late.replica)).toEqual([[shared, 7]]);
    await a.panel.set(shared, 8, BACKGROUND_CONTEXT);
    await eventually(() => counts(late.replica)[0]?.[1] === 8);
  });

  it('closes a non-durable view with no_clients when its last addressee leaves; a durable one stays', async () => {
    const { fixture, record } = await start(transport);
    const a = await attach(fixture);
    const b = await attach(fixture);
    const passing = await a.panel.open('originator', false, null, BACKGROUND_CONTEXT);
    const durable = await a.panel.open('originator', true, null, BACKGROUND_CONTEXT);

    a.client.close();
    await eventually(() => record.ended.has(passing));
    expect(record.ended.get(passing)).toEqual({ end: 'no_clients' });
    expect(record.ended.has(durable)).toBe(false);
    await b.panel.set(durable, 5, BACKGROUND_CONTEXT);
    expect(record.views.get(durable)?.closed).toBe(false);
  });

  it('hands a durable view whose addressees all left to the next client that attaches', async () => {
    const { fixture, record } = await start(transport);
    const a = await attach(fixture);
    const viewId = await a.panel.open('originator', true, null, BACKGROUND_CONTEXT);
    await a.views.show(['test.counter'], BACKGROUND_CONTEXT);
    expect(record.views.get(viewId)?.shownBy).toBe(1);
    a.client.close();
    // The session saw A leave: nobody shows the view any more.
    await eventually(() => record.views.get(viewId)?.shownBy === 0);

    const again = await attach(fixture);
    expect(again.replica.list()).toMatchObject([{ viewId, to: [again.id] }]);
    await again.views.message(viewId, { add: 4 }, BACKGROUND_CONTEXT);
    expect(record.messages.at(-1)).toEqual({ viewId, add: 4, from: again.id });
  });

  it('counts the connected addressees that declared the component as showing the view', async () => {
    const { fixture, record } = await start(transport);
    const a = await attach(fixture);
    const b = await attach(fixture);
    const viewId = await a.panel.open('all', false, null, BACKGROUND_CONTEXT);
    const view = record.views.get(viewId);
    const heard: number[] = [];
    view?.onShown((count) => heard.push(count));
    expect(view?.shownBy).toBe(0);

    await a.views.show(['test.counter'], BACKGROUND_CONTEXT);
    await b.views.show(['something.else'], BACKGROUND_CONTEXT);
    expect(view?.shownBy).toBe(1);
    await b.views.show(['something.else', 'test.counter'], BACKGROUND_CONTEXT);
    expect(view?.shownBy).toBe(2);
    b.client.close();
    await eventually(() => view?.shownBy === 1);
    expect(heard).toEqual([1, 2, 1]);
  });

  it('reattaching sees every view again, from the snapshot', async () => {
    const { fixture } = await start(transport);
    const a = await attach(fixture);
    const viewId = await a.panel.open('all', true, null, BACKGROUND_CONTEXT);
    await a.panel.set(viewId, 4, BACKGROUND_CONTEXT);
    a.client.close();

    const again = await attach(fixture);
    expect(counts(again.replica)).toEqual([[viewId, 4]]);
  });

  it('a durable view comes back with its id and state when the session restarts, and its plugin takes it back', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'pi-views-'));
    onTestFinished(() => rm(directory, { recursive: true, force: true }));
    const { fixture } = await start(transport, newPanelRecord(), directory);
    const a = await attach(fixture);
    const viewId = await a.panel.open('all', true, 'board', BACKGROUND_CONTEXT);
    await a.panel.set(viewId, 9, BACKGROUND_CONTEXT);
    const lost = await a.panel.open('all', true, 'nobody-comes-back', BACKGROUND_CONTEXT);
    fixtures.splice(fixtures.indexOf(fixture), 1);
    await fixture.close();

    const record = newPanelRecord();
    const log: string[] = [];
    const restarted = await startTestSessionHost({
      transport,
      directory,
      log: (line) => log.push(line),
      facets: [{ id: 'panel', facet: panelFacet(record, ['board']) }],
    });
    fixtures.push(restarted);
    const b = await attach(restarted);
    expect(b.replica.list()).toMatchObject([{ viewId, state: { count: 9 }, durable: true }]);
    expect(log).toEqual([`closed 1 restored view(s) no plugin took back: ${lost}`]);
    await b.views.message(viewId, { add: 1 }, BACKGROUND_CONTEXT);
    expect(record.messages).toEqual([{ viewId, add: 1, from: b.id }]);
  });
});
