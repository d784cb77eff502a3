import { describe, expect, it } from 'vitest';
import { debugRequested, failureText } from './debug-detail';

const DEBUG = { PI_DEBUG: '1' };

describe('failureText', () => {
  it('is the one line without PI_DEBUG', () => {
    const thrown = new Error('boom', { cause: new Error('disk full') });
    expect(failureText('plugin "x" failed during setup: boom', thrown, {})).toBe(
      'plugin "x" failed during setup: boom',
    );
    expect(failureText('one line', thrown, { PI_DEBUG: '0' })).toBe('one line');
  });

  it('adds the stack and every cause under it with PI_DEBUG=1', () => {
    const root = new TypeError('disk full');
    const thrown = new Error('boom', { cause: root });
    const text = failureText('plugin "x" failed during setup: boom', thrown, DEBUG);
    const lines = text.split('\n');
    expect(lines[0]).toBe('plugin "x" failed during setup: boom');
    expect(lines[1]).toBe('  Error: boom');
    expect(lines[2]).toMatch(/^ {6}at .*debug-detail\.test\.ts/);
    expect(text).toContain('\n  caused by: TypeError: disk full\n');
    expect(lines.slice(1).every((line) => line.startsWith('  '))).toBe(true);
  });

  it('prints a thrown value that is no Error, and stops at a cycle of causes', () => {
    expect(failureText('failed', { code: 42 }, DEBUG)).toBe('failed\n  thrown value: {"code":42}');
    const first = new Error('first');
    const second = new Error('second', { cause: first });
    Object.assign(first, { cause: second });
    const text = failureText('failed', first, DEBUG);
    expect(text.match(/caused by/g)).toHaveLength(1);
  });

  it('adds nothing when nothing was thrown', () => {
    expect(failureText('refused', undefined, DEBUG)).toBe('refused');
  });
});

describe('debugRequested', () => {
  it('is on for PI_DEBUG=1 or true only', () => {
    expect(debugRequested({ PI_DEBUG: '1' })).toBe(true);
    expect(debugRequested({ PI_DEBUG: 'true' })).toBe(true);
    expect(debugRequested({ PI_DEBUG: '' })).toBe(false);
    expect(debugRequested({})).toBe(false);
  });
});
