import { BACKGROUND_CONTEXT } from '@pi/context';
import { describe, expect, it } from 'vitest';
import type { HarnessEvent, UserMessage } from '@pi/agent-contract';
import { openHarness } from './open-harness';
import {
  createDeferred,
  createScriptedProvider,
  harnessTestBed,
  nextEvent,
  recordEvents,
  testHarnessOptions,
} from './testing';

const hello: UserMessage = { role: 'user', content: [{ type: 'text', text: 'hello' }] };
const bed = harnessTestBed();

describe('a run waiting on a silent model', () => {
  it('reports the silence once it passes the notice time, and its end when the model speaks', async () => {
    const speak = createDeferred<void>();
    const provider = createScriptedProvider({
      turns: [
        [
          { type: 'wait', until: speak.promise },
          { type: 'text_delta', delta: 'there' },
          { type: 'done', stopReason: 'stop' },
        ],
      ],
    });
    const options = {
      ...testHarnessOptions({ file: bed.directory.file, providers: [provider] }),
      modelWaitNoticeMs: 20,
    };
    const harness = (await openHarness(options))._unsafeUnwrap();
    bed.open.push(harness);
    const events = recordEvents(harness);

    const waiting = nextEvent(harness, 'model_waiting');
    const { operationId } = (await harness.main.prompt([hello], BACKGROUND_CONTEXT))._unsafeUnwrap();
    const notice = await waiting;
    expect(notice.operationId).toBe(operationId);
    // Never before the notice time: the silence is measured, not assumed.
    expect(notice.silentMs).toBeGreaterThanOrEqual(20);

    speak.resolve();
    await harness.main.settled(operationId);
    const order = events
      .filter((event) => event.type === 'model_waiting' || event.type === 'text_delta')
      .map((event: HarnessEvent) =>
        event.type === 'model_waiting' ? `waiting:${event.silentMs === null ? 'over' : 'on'}` : 'delta',
      );
    expect(order).toEqual(['waiting:on', 'waiting:over', 'delta']);
  });
});
