import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TRANSPORTS, type TransportKind } from '@pi/test-support';
import { finalAnswer, startSessionAndTui, type SessionAndTui } from './session-and-tui';

const running: SessionAndTui[] = [];
afterEach(async () => {
  for (const pair of running.splice(0).reverse()) await pair.close();
});

async function start(transport: TransportKind): Promise<SessionAndTui> {
  const pair = await startSessionAndTui(transport);
  running.push(pair);
  return pair;
}

describe.each(TRANSPORTS)('the model picker and thinking level over %s', (transport) => {
  it('Ctrl+L opens the picker, typing filters, Enter selects, and the footer and the next run use the model', async () => {
    const { session, tui, lane, prompt, shows, hides } = await start(transport);
    await shows('offline/echo · thinking off');

    await tui.type('\x0c');
    await shows('Select a model');
    expect(tui.screen()).toContain('offline/echo — Offline echo  (current)');
    await tui.type('thinker');
    await hides('offline/echo — Offline echo');
    await tui.type('\r');

    await shows('offline/thinker · thinking high');
    await lane.settled(await prompt('hello'));
    expect(await finalAnswer(session)).toContain('(thinking: high)');
  });

  it('Ctrl+T changes the thinking level the footer shows', async () => {
    const { tui, shows } = await start(transport);
    await tui.type('/model offline/thinker\r');
    await shows('offline/thinker · thinking high');
    await tui.type('\x14');
    await shows('offline/thinker · thinking off');
    await tui.type('\x14');
    await shows('offline/thinker · thinking low');
  });

  it('/model offline/nope shows the session’s error and keeps the model', async () => {
    const { tui, shows } = await start(transport);
    await shows('offline/echo · thinking off');
    await tui.type('/model offline/nope\r');
    await shows('No model "offline/nope" in the catalogue (unknown_model)');
    expect(tui.screen()).toContain('offline/echo · thinking off');
    expect(tui.host.failures()).toEqual([]);
  });

  it('the picker shows a broken models.json as the catalogue’s warning, and /refresh reports it', async () => {
    const { session, tui, shows } = await start(transport);
    await shows('offline/echo · thinking off');
    await mkdir(join(session.directory, 'config'), { recursive: true });
    await writeFile(join(session.directory, 'config', 'models.json'), '{ not json');

    await tui.type('/refresh\r');
    await shows('models), with problems — models.json:');
    await tui.type('\x0c');
    await shows('Select a model');
    await shows('warning: models.json:');
  });
});
