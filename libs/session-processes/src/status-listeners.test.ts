import { afterEach, describe, expect, it, vi } from 'vitest';
import { StatusListeners, type StatusChange } from './status-listeners';

const change: StatusChange = { sessionId: 's-1', status: 'idle', previous: 'starting' };

afterEach(() => {
  vi.restoreAllMocks();
});

describe('status listeners', () => {
  it('disposing a registration removes exactly it, even when the same function is added twice', () => {
    const listeners = new StatusListeners();
    const calls: string[] = [];
    const twice = () => calls.push('twice');
    const other = () => calls.push('other');
    const first = listeners.add(twice);
    listeners.add(twice);
    const third = listeners.add(other);
    first();
    first(); // disposing again changes nothing
    listeners.emit(change);
    expect(calls).toEqual(['twice', 'other']);
    third();
    listeners.emit(change);
    expect(calls).toEqual(['twice', 'other', 'twice']);
  });

  it('a listener that throws is reported as a warning and the others still hear the change', () => {
    const warning = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const listeners = new StatusListeners();
    const heard: StatusChange[] = [];
    listeners.add(() => {
      throw new Error('boom');
    });
    listeners.add((seen) => heard.push(seen));
    expect(() => listeners.emit(change)).not.toThrow();
    expect(heard).toEqual([change]);
    expect(warning).toHaveBeenCalledWith(expect.stringContaining('s-1 → idle: boom'), { code: 'PI_STATUS_LISTENER' });
  });

  it('a listener added or removed during an emission takes effect from the next one', () => {
    const listeners = new StatusListeners();
    const calls: string[] = [];
    let added = false;
    listeners.add(() => {
      calls.push('first');
      removeSecond();
      if (!added) listeners.add(() => calls.push('late'));
      added = true;
    });
    const removeSecond = listeners.add(() => calls.push('second'));
    listeners.emit(change);
    listeners.emit(change);
    expect(calls).toEqual(['first', 'second', 'first', 'late']);
  });
});
