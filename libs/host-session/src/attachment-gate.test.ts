import { describe, expect, it } from 'vitest';
import { AttachmentGate } from './attachment-gate';

/** A registration that records when it attaches and detaches. */
function recorded(log: string[], name: string): () => () => void {
  return () => {
    log.push(`attach ${name}`);
    return () => void log.push(`detach ${name}`);
  };
}

describe('a plugin set’s attachment gate', () => {
  it('holds registrations until the set goes live, then attaches them in order', () => {
    const log: string[] = [];
    const gate = new AttachmentGate();
    gate.attach(recorded(log, 'a'));
    gate.attach(recorded(log, 'b'));
    expect(log).toEqual([]);
    gate.open();
    expect(log).toEqual(['attach a', 'attach b']);
    gate.attach(recorded(log, 'c'));
    expect(log).toEqual(['attach a', 'attach b', 'attach c']);
  });

  it('removes exactly the one registration whose remover runs, held or attached', () => {
    const log: string[] = [];
    const gate = new AttachmentGate();
    const removeHeld = gate.attach(recorded(log, 'held'));
    gate.attach(recorded(log, 'kept'));
    removeHeld();
    gate.open();
    const removeLive = gate.attach(recorded(log, 'live'));
    removeLive();
    removeLive();
    expect(log).toEqual(['attach kept', 'attach live', 'detach live']);
  });

  it('detaches what was attached at once when closed with detach, and only then', () => {
    const log: string[] = [];
    const gate = new AttachmentGate();
    const remove = gate.attach(recorded(log, 'hook'));
    gate.open();
    gate.close({ detach: true });
    remove();
    expect(log).toEqual(['attach hook', 'detach hook']);
    const kept = new AttachmentGate();
    kept.attach(recorded(log, 'listener'));
    kept.open();
    kept.close();
    expect(log).toEqual(['attach hook', 'detach hook', 'attach listener']);
  });

  it('ignores what is registered after the set was replaced or refused', () => {
    const log: string[] = [];
    const gate = new AttachmentGate();
    gate.close();
    gate.attach(recorded(log, 'late'))();
    gate.open();
    expect(log).toEqual([]);
  });
});
