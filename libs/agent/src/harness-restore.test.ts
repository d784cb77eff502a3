import { spawnSync } from 'node:child_process';
import { appendFile, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { SessionEntry, SessionHeader } from '@pi/agent-contract';
import type { AgentHarness, HarnessOptions } from './harness-types';
import type { UserMessage } from '@pi/agent-contract';
import { openHarness } from './open-harness';
import {
  createDeferred,
  createScriptedProvider,
  harnessTestBed,
  nextEvent,
  readSessionLines,
  testHarnessOptions,
} from './testing';

const hello: UserMessage = { role: 'user', content: [{ type: 'text', text: 'hello' }] };
const header: SessionHeader = {
  type: 'session',
  version: 1,
  sessionId: 'test-session',
  cwd: '/w',
  createdAt: '2024-01-01T00:00:00.000Z',
};
const entry = (id: string, parentId: string | null, text: string): SessionEntry => ({
  id,
  parentId,
  timestamp: '2024-01-01T00:00:00.000Z',
  kind: 'message',
  operationId: null,
  message: { role: 'user', content: [{ type: 'text', text }] },
});
const line = (value: unknown): string => `${JSON.stringify(value)}\n`;

const bed = harnessTestBed();
const open = bed.open;

function options(turns: Parameters<typeof createScriptedProvider>[0]['turns'] = []): HarnessOptions {
  return testHarnessOptions({ file: bed.directory.file, providers: [createScriptedProvider({ turns })] });
}

async function openOk(harnessOptions: HarnessOptions = options()): Promise<AgentHarness> {
  const harness = (await openHarness(harnessOptions))._unsafeUnwrap();
  open.push(harness);
  return harness;
}

async function writeSession(text: string): Promise<void> {
  await mkdir(dirname(bed.directory.file), { recursive: true });
  await writeFile(bed.directory.file, text);
}

describe('creating and restoring a session file', () => {
  it('creates the directory (0700) and the file (0600) with a header naming the session after the file', async () => {
    const harness = await openOk();
    expect(harness.sessionId).toBe('test-session');
    expect((await stat(dirname(bed.directory.file))).mode & 0o777).toBe(0o700);
    expect((await stat(bed.directory.file)).mode & 0o777).toBe(0o600);
    expect(await readSessionLines(bed.directory.file)).toEqual([
      expect.objectContaining({ type: 'session', version: 1, sessionId: 'test-session', cwd: '/workspace' }),
    ]);
    expect(harness.recovery).toEqual([]);
  });

  it('restores the transcript and tree after a restart', async () => {
    const first = await openOk(
      options([
        [
          { type: 'text_delta', delta: 'hi there' },
          { type: 'done', stopReason: 'stop' },
        ],
      ]),
    );
    const { operationId } = (await first.main.prompt([hello], BACKGROUND_CONTEXT))._unsafeUnwrap();
    await first.main.settled(operationId);
    const entriesBefore = first.tree.entries();
    await first.close();

    const second = await openOk();

    expect(second.recovery).toEqual([]);
    expect(second.tree.entries()).toEqual(entriesBefore);
    expect(second.tree.leafId).toBe(first.tree.leafId);
    expect(second.tree.messages().map((message) => message.role)).toEqual(['user', 'assistant']);
    expect(await second.main.settled(operationId)).toEqual({ outcome: 'completed', error: null });
    expect((await second.main.requestAbort(operationId, BACKGROUND_CONTEXT))._unsafeUnwrapErr().code).toBe(
      'already_settled',
    );
  });

  it('settles an operation a crash left unsettled as failed "interrupted", answering its dangling tool calls', async () => {
    const never = createDeferred<void>();
    const first = await openOk(
      testHarnessOptions({
        file: bed.directory.file,
        providers: [
          createScriptedProvider({
            turns: [
              [
                { type: 'tool_call', id: 'c1', name: 'slow', arguments: {} },
                { type: 'done', stopReason: 'tool_calls' },
              ],
            ],
          }),
        ],
        tools: [
          {
            name: 'slow',
            label: 'Slow',
            description: 'never returns',
            executionMode: 'sequential',
            parameters: z.object({}),
            execute: () => never.promise.then(() => ({ content: [], details: null })),
          },
        ],
      }),
    );
    const started = nextEvent(first, 'tool_started');
    const { operationId } = (await first.main.prompt([hello], BACKGROUND_CONTEXT))._unsafeUnwrap();
    await started;
    await first.close(); // the process "dies": nothing more is written

    const second = await openOk(options([[{ type: 'done', stopReason: 'stop' }]]));
    // Cut short in a tool round: decided once the tools are known, and `slow` may not run again.
    expect(second.parked).toBe(operationId);
    second.startQueue();

    expect(second.parked).toBeNull();
    expect(second.recovery).toEqual([
      `operation ${operationId} was interrupted (started but never settled); settled it as failed`,
    ]);
    expect(await second.main.settled(operationId)).toEqual({ outcome: 'failed', error: 'interrupted' });
    const lines = await readSessionLines(bed.directory.file);
    expect(lines.slice(-2)).toEqual([
      expect.objectContaining({
        kind: 'message',
        operationId,
        message: expect.objectContaining({ role: 'tool', toolCallId: 'c1', isError: true }),
      }),
      expect.objectContaining({ kind: 'operation_settled', operationId, outcome: 'failed', error: 'interrupted' }),
    ]);
    const next = (await second.main.prompt([hello], BACKGROUND_CONTEXT))._unsafeUnwrap();
    expect((await second.main.settled(next.operationId)).outcome).toBe('completed');
  });

  it('settles an interrupted operation whose cancellation was already durable as aborted', async () => {
    const started = {
      id: 's',
      parentId: null,
      timestamp: header.createdAt,
      kind: 'operation_started',
      operationId: 'op1',
    };
    const cancel = {
      id: 'c',
      parentId: 's',
      timestamp: header.createdAt,
      kind: 'cancel_requested',
      operationId: 'op1',
    };
    await writeSession(line(header) + line(started) + line(cancel));

    const harness = await openOk();

    expect(await harness.main.settled('op1')).toEqual({ outcome: 'aborted', error: 'interrupted' });
  });
});

describe('damaged session files', () => {
  it('cuts off a torn final line, keeps every earlier entry and reports it', async () => {
    const torn = '{"id":"e3","parentId":"e2","timest';
    await writeSession(line(header) + line(entry('e1', null, 'one')) + line(entry('e2', 'e1', 'two')) + torn);

    const harness = await openOk();

    expect(harness.recovery).toEqual([`dropped a torn final line of ${torn.length} bytes (line 4)`]);
    expect(harness.tree.entries().map((restored) => restored.id)).toEqual(['e1', 'e2']);
    expect(await readFile(bed.directory.file, 'utf8')).toBe(
      line(header) + line(entry('e1', null, 'one')) + line(entry('e2', 'e1', 'two')),
    );
  });

  it('appends cleanly after the repair, and the next open finds nothing to recover', async () => {
    await writeSession(line(header) + line(entry('e1', null, 'one')) + '\0\0\0\0\n');
    const first = await openOk();
    expect(first.recovery).toEqual(['dropped a torn final line of 5 bytes (line 3)']);
    await first.appendCustom('notes', { saved: true }, BACKGROUND_CONTEXT);
    await first.close();

    const second = await openOk();

    expect(second.recovery).toEqual([]);
    expect(second.tree.entries().map((restored) => restored.kind)).toEqual(['message', 'custom']);
    expect(second.tree.entries()[1]?.parentId).toBe('e1');
  });

  it('refuses a file with an invalid line in the middle, naming the line', async () => {
    await writeSession(line(header) + line(entry('e1', null, 'one')) + 'not json\n' + line(entry('e2', 'e1', 'two')));

    const result = await openHarness(options());

    expect(result._unsafeUnwrapErr()).toMatchObject({ code: 'corrupt', file: bed.directory.file });
    expect(result._unsafeUnwrapErr().message).toContain('line 3');
  });

  it('refuses an entry whose parent is not an earlier entry', async () => {
    await writeSession(line(header) + line(entry('e1', 'ghost', 'one')) + line(entry('e2', 'e1', 'two')));
    const result = await openHarness(options());
    expect(result._unsafeUnwrapErr().code).toBe('corrupt');
    expect(result._unsafeUnwrapErr().message).toContain('line 2');
  });

  it('leaves a corrupt file exactly as it was, and does not keep it locked', async () => {
    const text = line(header) + 'garbage\n' + line(entry('e1', null, 'one'));
    await writeSession(text);
    expect((await openHarness(options())).isErr()).toBe(true);
    expect(await readFile(bed.directory.file, 'utf8')).toBe(text);
    expect((await openHarness(options()))._unsafeUnwrapErr().code).toBe('corrupt');
  });
});

describe('the session lock', () => {
  it('lets only one harness open a session until it closes', async () => {
    const first = await openOk();
    const second = await openHarness(options());
    expect(second._unsafeUnwrapErr()).toMatchObject({ code: 'locked', file: bed.directory.file });
    expect(second._unsafeUnwrapErr().message).toContain(String(process.pid));

    await first.close();
    expect((await openOk()).sessionId).toBe('test-session');
  });

  it('takes over a lock left by a process that is gone', async () => {
    const gone = spawnSync(process.execPath, ['-e', '0']).pid;
    await writeSession('');
    await appendFile(`${bed.directory.file}.lock`, `${gone}\n`);

    const harness = await openOk();

    expect(harness.sessionId).toBe('test-session');
    expect(await readFile(`${bed.directory.file}.lock`, 'utf8')).toBe(`${process.pid}\n`);
  });

  it("takes over a lock naming this process's own pid when this process does not hold it (a restarted container)", async () => {
    await writeSession('');
    await appendFile(`${bed.directory.file}.lock`, `${process.pid}\n`);

    const harness = await openOk();

    expect(harness.sessionId).toBe('test-session');
  });
});
