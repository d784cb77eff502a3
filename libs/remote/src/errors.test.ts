import { describe, expect, it } from 'vitest';
import {
  REMOTE_ERROR_CODES,
  RemoteError,
  isRemoteError,
  isRemoteErrorEnvelope,
  toRemoteError,
  type RemoteErrorCode,
} from './errors';
import { isJsonValue, type JsonValue } from '@pi/json';

describe('RemoteError', () => {
  it('keeps every stable code and a service-defined snake_case code', () => {
    for (const code of Object.values(REMOTE_ERROR_CODES)) expect(new RemoteError(code, 'm').code).toBe(code);
    expect(new RemoteError('unknown_model', 'm').code).toBe('unknown_model');
  });

  it.each(['Bad Code', '', 'UPPER', '1starts_with_digit', 'x'.repeat(65), 'has-dash'])(
    'turns the malformed code %j into internal',
    (code) => {
      expect(new RemoteError(code, 'm').code).toBe('internal');
    },
  );

  it('has an envelope of exactly code, message and data', () => {
    const error = new RemoteError('invalid_argument', 'Bad input', { path: '$.args[0]' });
    expect(error.toEnvelope()).toEqual({ code: 'invalid_argument', message: 'Bad input', data: { path: '$.args[0]' } });
    expect(Object.keys(new RemoteError('cancelled', 'Stopped').toEnvelope())).toEqual(['code', 'message']);
  });

  it('round-trips through its envelope', () => {
    const original = new RemoteError('stale_reference', 'Gone', { ref: 'r1' });
    const copy = RemoteError.fromEnvelope(JSON.parse(JSON.stringify(original.toEnvelope())));
    expect(copy).toBeInstanceOf(RemoteError);
    expect(copy.toEnvelope()).toEqual(original.toEnvelope());
  });

  it('never puts a stack or cause in its envelope', () => {
    const error = new RemoteError('internal', 'Internal error');
    (error as { cause?: unknown }).cause = new Error('secret');
    const text = JSON.stringify(error.toEnvelope());
    expect(text).not.toContain('secret');
    expect(text).not.toContain('at ');
  });

  it('drops data that is not strict JSON, so its envelope always is', () => {
    const error = new RemoteError('invalid_argument', 'Bad', { when: new Date(0) } as unknown as JsonValue);
    expect(error.data).toBeUndefined();
    expect(isJsonValue(error.toEnvelope())).toBe(true);
  });
});

describe('toRemoteError', () => {
  it('passes a RemoteError through unchanged', () => {
    const error = new RemoteError('not_authorized', 'No');
    expect(toRemoteError(error)).toBe(error);
  });

  it('turns any other thrown value into internal with a generic message', () => {
    for (const cause of [
      new Error('password=hunter2'),
      'a string',
      42,
      null,
      undefined,
      { code: 'cancelled', message: 'forged' },
    ]) {
      const error = toRemoteError(cause);
      expect(error.toEnvelope()).toEqual({ code: 'internal', message: 'Internal error' });
    }
  });

  it('turns an abort into cancelled and a deadline (TimeoutError) into timeout', () => {
    const controller = new AbortController();
    controller.abort();
    expect(toRemoteError(controller.signal.reason).code).toBe('cancelled');
    expect(toRemoteError(new DOMException('late', 'TimeoutError')).code).toBe('timeout');
  });

  it('gives every stable code a distinct value', () => {
    const codes: RemoteErrorCode[] = Object.values(REMOTE_ERROR_CODES);
    expect(new Set(codes).size).toBe(codes.length);
  });
});

describe('error guards', () => {
  it('recognises an envelope by its string code and message only', () => {
    expect(isRemoteErrorEnvelope({ code: 'x', message: 'y' })).toBe(true);
    expect(isRemoteErrorEnvelope({ code: 'x' })).toBe(false);
    expect(isRemoteErrorEnvelope({ code: 1, message: 'y' })).toBe(false);
    expect(isRemoteErrorEnvelope(null)).toBe(false);
    expect(isRemoteErrorEnvelope('x')).toBe(false);
  });

  it('tells a RemoteError from an Error with the same fields', () => {
    expect(isRemoteError(new RemoteError('internal', 'x'))).toBe(true);
    expect(isRemoteError(Object.assign(new Error('x'), { code: 'internal' }))).toBe(false);
  });
});
