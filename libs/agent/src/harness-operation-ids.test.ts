import { BACKGROUND_CONTEXT } from '@pi/context';
import { describe, expect, it } from 'vitest';
import type { UserMessage } from '@pi/agent-contract';
import type { AgentHarness } from './harness-types';
import { openHarness } from './open-harness';
import {
  createDeferred,
  createScriptedProvider,
  harnessTestBed,
  readSessionLines,
  testHarnessOptions,
  type ScriptStep,
} from './testing';

const hello: UserMessage = { role: 'user', content: [{ type: 'text', text: 'hello' }] };
const done: ScriptStep = { type: 'done', stopReason: 'stop' };

const bed = harnessTestBed();
const open = bed.open;

async function openWith(turns: ReadonlyArray<readonly ScriptStep[]>): Promise<AgentHarness> {
  const provider = createScriptedProvider({ turns });
  const harness = (
    await openHarness(testHarnessOptions({ file: bed.directory.file, providers: [provider] }))
  )._unsafeUnwrap();
  open.push(harness);
  return harness;
}

async function startedLines(): Promise<Array<Record<string, unknown>>> {
  return (await readSessionLines(bed.directory.file)).filter((line) => line['kind'] === 'operation_started');
}

describe('client operation ids', () => {
  it('a resend of the same id while the run is going answers with that run and starts nothing', async () => {
    const gate = createDeferred<void>();
    const harness = await openWith([[{ type: 'wait', until: gate.promise }, done]]);
    const first = (
      await harness.main.prompt([hello], BACKGROUND_CONTEXT, { clientOperationId: 'op-1' })
    )._unsafeUnwrap();
    const again = await harness.main.prompt([hello], BACKGROUND_CONTEXT, { clientOperationId: 'op-1' });

    expect(first.duplicate).toBe(false);
    expect(again._unsafeUnwrap()).toEqual({ operationId: first.operationId, duplicate: true });
    gate.resolve();
    await harness.main.settled(first.operationId);
    expect(await startedLines()).toEqual([
      expect.objectContaining({ operationId: first.operationId, clientOperationId: 'op-1' }),
    ]);
  });

  it('two sends of one id racing each other start one run', async () => {
    const harness = await openWith([[done]]);
    const [a, b] = await Promise.all([
      harness.main.prompt([hello], BACKGROUND_CONTEXT, { clientOperationId: 'race' }),
      harness.main.prompt([hello], BACKGROUND_CONTEXT, { clientOperationId: 'race' }),
    ]);
    expect(b._unsafeUnwrap().operationId).toBe(a._unsafeUnwrap().operationId);
    await harness.main.settled(a._unsafeUnwrap().operationId);
    expect(await startedLines()).toHaveLength(1);
  });

  it('a resend after the run settled, and after a reopen of the file, still answers with the first run', async () => {
    const first = await openWith([[done]]);
    const { operationId } = (
      await first.main.prompt([hello], BACKGROUND_CONTEXT, { clientOperationId: 'op-2' })
    )._unsafeUnwrap();
    await first.main.settled(operationId);
    expect(
      (await first.main.prompt([hello], BACKGROUND_CONTEXT, { clientOperationId: 'op-2' }))._unsafeUnwrap(),
    ).toEqual({
      operationId,
      duplicate: true,
    });
    await first.close();

    const reopened = await openWith([]);
    expect(
      (await reopened.main.prompt([hello], BACKGROUND_CONTEXT, { clientOperationId: 'op-2' }))._unsafeUnwrap(),
    ).toEqual({ operationId, duplicate: true });
    expect(await startedLines()).toHaveLength(1);
  });

  it('a prompt without an id records none, so old and new files read alike', async () => {
    const harness = await openWith([[done]]);
    const { operationId } = (await harness.main.prompt([hello], BACKGROUND_CONTEXT))._unsafeUnwrap();
    await harness.main.settled(operationId);
    const [started] = await startedLines();
    expect(started).not.toHaveProperty('clientOperationId');
  });

  it('refuses an id outside 1–128 characters of [A-Za-z0-9_-] as invalid_message, recording nothing', async () => {
    const harness = await openWith([]);
    for (const bad of ['', 'has space', 'x'.repeat(129), 'ümlaut']) {
      const refused = await harness.main.prompt([hello], BACKGROUND_CONTEXT, { clientOperationId: bad });
      expect(refused._unsafeUnwrapErr().code).toBe('invalid_message');
    }
    expect(await startedLines()).toEqual([]);
  });
});
