import { describe, expect, it } from 'vitest';
import type { TuiTheme } from '@pi/plugin-api';
import { silentSeconds, statusLines, type StatusInput } from './status-lines';

const plain: TuiTheme = { fg: (_color, text) => text, bold: (text) => text };
const fault = {
  code: 'session_file_unwritable' as const,
  message: 'Cannot write the session file /s/a.jsonl: no space left on device (ENOSPC)',
  cause: 'ENOSPC',
};
const input = (over: Partial<StatusInput>): StatusInput => ({
  running: null,
  spinner: '⠋',
  storage: { fault: null },
  waiting: null,
  now: 100_000,
  theme: plain,
  keyHint: (action) => action,
  ...over,
});

describe('the chat status lines', () => {
  it('show nothing while idle and the session file can be written', () => {
    expect(statusLines(input({}))).toEqual([]);
  });

  it('show the session file fault, idle or not, and say what happens to the next send', () => {
    expect(statusLines(input({ storage: { fault } }))).toEqual([
      `✗ ${fault.message} · sends are refused until it can be written; the next one tries again`,
    ]);
    expect(statusLines(input({ storage: { fault }, running: 'op' }))).toHaveLength(2);
  });

  it('say the run works, or — while the model is silent — how many seconds it has waited, counting on', () => {
    expect(statusLines(input({ running: 'op' }))).toEqual([
      '⠋ working… · esc to interrupt · submit steers · followUp queues a follow-up',
    ]);
    // The run's elapsed time, from when this client saw it start.
    expect(statusLines(input({ running: 'op', runStartedAt: 88_500 }))[0]).toBe(
      '⠋ working… 11s · esc to interrupt · submit steers · followUp queues a follow-up',
    );
    const waiting = { wait: { operationId: 'op', silentMs: 5_200 }, receivedAt: 100_000 };
    expect(statusLines(input({ running: 'op', waiting, now: 107_000 }))[0]).toBe(
      '⠋ waiting for the model… 12s · esc to interrupt · submit steers · followUp queues a follow-up',
    );
    // A notice about another run (one that just ended) is not this run's.
    expect(statusLines(input({ running: 'other', waiting }))[0]).toContain('working…');
  });

  it('say the run waits for the user’s answer while a question or permission of the session is open here', () => {
    const waiting = { wait: { operationId: 'op', silentMs: 5_200 }, receivedAt: 100_000 };
    expect(statusLines(input({ running: 'op', answering: true, waiting }))).toEqual(['? waiting for your answer']);
    expect(statusLines(input({ running: null, answering: true }))).toEqual([]);
    expect(statusLines(input({ running: 'op', answering: true, storage: { fault } }))).toHaveLength(2);
  });

  it('count the seconds from the silence the session reported, not from when this client heard of it', () => {
    const waiting = { wait: { operationId: 'op', silentMs: 5_000 }, receivedAt: 1_000 };
    expect(silentSeconds(waiting, 1_000)).toBe(5);
    expect(silentSeconds(waiting, 1_999)).toBe(5);
    expect(silentSeconds(waiting, 2_000)).toBe(6);
    // A clock that steps back never counts down below what the session said.
    expect(silentSeconds(waiting, 0)).toBe(5);
  });
});
