import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { promisify } from 'node:util';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { describe, expect, it } from 'vitest';
import type { UserMessage } from '@pi/agent-contract';
import { openHarness } from './open-harness';
import { createScriptedProvider, harnessTestBed, testHarnessOptions, type ScriptStep } from './testing';

/**
 * A real kernel refusal, not a wrapper's: the file-size limit (RLIMIT_FSIZE) of this test's own process, lowered with
 * prlimit(1) and raised again. Unlike a read-only chmod it binds root too, so it runs in CI (which runs as root);
 * Node ignores the SIGXFSZ that comes with it, so the write fails with EFBIG after writing what fits.
 */
const PRLIMIT = '/usr/bin/prlimit';
const run = promisify(execFile);
const limitFileSize = (soft: number | 'unlimited') =>
  run(PRLIMIT, ['--pid', String(process.pid), `--fsize=${soft}:unlimited`]);

const user = (text: string): UserMessage => ({ role: 'user', content: [{ type: 'text', text }] });
const answer = (text: string): ScriptStep[] => [
  { type: 'text_delta', delta: text },
  { type: 'done', stopReason: 'stop' },
];
const bed = harnessTestBed();

describe.skipIf(process.platform !== 'linux' || !existsSync(PRLIMIT))('a session file that hits a real limit', () => {
  it('refuses the prompt that does not fit (EFBIG), then cuts the partial line and takes the next once it fits', async () => {
    const provider = createScriptedProvider({ turns: [answer('one'), answer('two')] });
    const options = testHarnessOptions({ file: bed.directory.file, providers: [provider] });
    const harness = (await openHarness(options))._unsafeUnwrap();
    bed.open.push(harness);
    const first = (await harness.main.prompt([user('first')], BACKGROUND_CONTEXT))._unsafeUnwrap();
    await harness.main.settled(first.operationId);
    const before = (await stat(bed.directory.file)).size;
    const entriesBefore = harness.tree.entries().map((entry) => entry.id);

    let refused;
    await limitFileSize(before + 100);
    try {
      refused = await harness.main.prompt([user('x'.repeat(2_000))], BACKGROUND_CONTEXT);
    } finally {
      await limitFileSize('unlimited');
    }
    expect(refused._unsafeUnwrapErr()).toEqual({
      code: 'session_file_unwritable',
      message: `Cannot write the session file ${bed.directory.file}: file too large (EFBIG)`,
    });
    // The kernel wrote what fitted: a torn line, which memory never saw.
    expect((await stat(bed.directory.file)).size).toBe(before + 100);
    expect(harness.tree.entries().map((entry) => entry.id)).toEqual(entriesBefore);

    const second = (await harness.main.prompt([user('second')], BACKGROUND_CONTEXT))._unsafeUnwrap();
    expect(await harness.main.settled(second.operationId)).toEqual({ outcome: 'completed', error: null });
    const held = harness.tree.entries().map((entry) => entry.id);
    await harness.close();
    const reopened = (await openHarness(options))._unsafeUnwrap();
    bed.open.push(reopened);
    // Nothing to repair on restart, and nothing written before the fault was lost.
    expect(reopened.recovery).toEqual([]);
    expect(reopened.tree.entries().map((entry) => entry.id)).toEqual(held);
    expect(held.slice(0, entriesBefore.length)).toEqual(entriesBefore);
  });
});
