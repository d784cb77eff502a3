import { describe, expect, it } from 'vitest';
import { RemoteError, checkCallArguments } from '@pi/remote';
import {
  Chat,
  MAX_CLIENT_OPERATION_ID_LENGTH,
  MAX_COMPACT_INSTRUCTIONS_LENGTH,
  MAX_HISTORY_LIMIT,
  MAX_OPERATION_ID_LENGTH,
  MAX_PROMPT_TEXT_LENGTH,
} from './index';

function refusal(member: string, args: unknown[]): RemoteError {
  try {
    checkCallArguments(Chat.exposure, member, args);
  } catch (error) {
    if (error instanceof RemoteError) return error;
    throw error;
  }
  throw new Error('the arguments were accepted');
}

describe('chat argument limits', () => {
  it('takes compact instructions of the largest size and refuses longer ones with invalid_argument', () => {
    expect(checkCallArguments(Chat.exposure, 'compact', [{}])).toHaveLength(1);
    const longest = { instructions: 'x'.repeat(MAX_COMPACT_INSTRUCTIONS_LENGTH) };
    expect(checkCallArguments(Chat.exposure, 'compact', [longest])).toHaveLength(1);
    for (const request of [{ instructions: 'x'.repeat(MAX_COMPACT_INSTRUCTIONS_LENGTH + 1) }, { instructions: 7 }]) {
      const error = refusal('compact', [request]);
      expect(error.code).toBe('invalid_argument');
      expect(error.message.length).toBeLessThan(1024);
    }
  });

  it('takes a prompt of the largest size and refuses a longer one with invalid_argument', () => {
    expect(checkCallArguments(Chat.exposure, 'prompt', [{ text: 'x'.repeat(MAX_PROMPT_TEXT_LENGTH) }])).toHaveLength(1);
    const error = refusal('prompt', [{ text: 'x'.repeat(MAX_PROMPT_TEXT_LENGTH + 1) }]);
    expect(error.code).toBe('invalid_argument');
    expect(error.message.length).toBeLessThan(1024);
  });

  it('takes a steer or follow-up of the largest size and refuses a longer one, or a bad id, with invalid_argument', () => {
    for (const member of ['steer', 'followUp']) {
      const longest = { text: 'x'.repeat(MAX_PROMPT_TEXT_LENGTH), operationId: 'send-1' };
      expect(checkCallArguments(Chat.exposure, member, [longest])).toHaveLength(1);
      for (const request of [
        { text: 'x'.repeat(MAX_PROMPT_TEXT_LENGTH + 1) },
        { text: 'hi', operationId: 'o'.repeat(MAX_CLIENT_OPERATION_ID_LENGTH + 1) },
        { text: 'hi', operationId: 'a b' },
        { operationId: 'send-1' },
      ]) {
        const error = refusal(member, [request]);
        expect(error.code).toBe('invalid_argument');
        expect(error.message.length).toBeLessThan(1024);
      }
    }
  });

  it('refuses an empty or over-long queue item id to withdraw with invalid_argument', () => {
    expect(checkCallArguments(Chat.exposure, 'withdraw', ['i'.repeat(MAX_OPERATION_ID_LENGTH)])).toHaveLength(1);
    for (const id of ['', 'i'.repeat(MAX_OPERATION_ID_LENGTH + 1), 'i'.repeat(1_000_000)]) {
      const error = refusal('withdraw', [id]);
      expect(error.code).toBe('invalid_argument');
      expect(error.message.length).toBeLessThan(1024);
    }
  });

  it('refuses an over-long operation id with invalid_argument, in a short message', () => {
    expect(checkCallArguments(Chat.exposure, 'requestAbort', ['o'.repeat(MAX_OPERATION_ID_LENGTH)])).toHaveLength(1);
    for (const id of ['o'.repeat(MAX_OPERATION_ID_LENGTH + 1), 'o'.repeat(1_000_000)]) {
      const error = refusal('requestAbort', [id]);
      expect(error.code).toBe('invalid_argument');
      expect(error.message.length).toBeLessThan(1024);
    }
  });

  it('takes a client operation id of 1–128 characters of [A-Za-z0-9_-] on prompt and operation, nothing else', () => {
    const longest = 'A-z_9'.repeat(MAX_CLIENT_OPERATION_ID_LENGTH / 4).slice(0, MAX_CLIENT_OPERATION_ID_LENGTH);
    expect(checkCallArguments(Chat.exposure, 'prompt', [{ text: 'hi', operationId: longest }])).toHaveLength(1);
    expect(checkCallArguments(Chat.exposure, 'operation', [{ operationId: longest }])).toHaveLength(1);
    for (const id of ['', 'o'.repeat(MAX_CLIENT_OPERATION_ID_LENGTH + 1), 'with space', 'a/b', 'ü']) {
      expect(refusal('prompt', [{ text: 'hi', operationId: id }]).code).toBe('invalid_argument');
      expect(refusal('operation', [{ operationId: id }]).code).toBe('invalid_argument');
    }
  });

  it('takes a history page of the largest size and refuses a larger limit or a huge index with invalid_argument', () => {
    expect(checkCallArguments(Chat.exposure, 'history', [{ before: 5000, limit: MAX_HISTORY_LIMIT }])).toHaveLength(1);
    for (const request of [
      { before: 5000, limit: MAX_HISTORY_LIMIT + 1 },
      { before: 5000, limit: 1_000_000_000 },
      { before: Number.MAX_SAFE_INTEGER + 2, limit: 1 },
    ]) {
      const error = refusal('history', [request]);
      expect(error.code).toBe('invalid_argument');
      expect(error.message.length).toBeLessThan(1024);
    }
  });
});
