import { describe, expect, it } from 'vitest';
import { ok } from 'neverthrow';
import type { SessionOrchestrator } from './session-orchestrator';
import type { SessionStatus } from './session-status';
import { SessionsElsewhere } from './sessions-elsewhere';
import { StatusListeners, type StatusChange } from './status-listeners';

/** A local orchestrator that runs `s-local` (idle) and records what it was asked. */
function localStandIn() {
  const listeners = new StatusListeners();
  const calls: string[] = [];
  const statuses = new Map<string, SessionStatus>([['s-local', 'idle']]);
  const local: SessionOrchestrator = {
    start: async (launch) => {
      calls.push(`start ${launch.sessionId}`);
      return ok(undefined);
    },
    stop: async (sessionId) => void calls.push(`stop ${sessionId}`),
    status: (sessionId) => statuses.get(sessionId) ?? 'closed',
    onStatusChanged: (listener) => listeners.add(listener),
    connected: (sessionId) => void calls.push(`connected ${sessionId}`),
    presentations: (sessionId, count) => void calls.push(`presentations ${sessionId} ${count}`),
    disconnected: (sessionId) => void calls.push(`disconnected ${sessionId}`),
  };
  return { local, listeners, calls };
}

describe('SessionsElsewhere', () => {
  it('follows a session it did not start by its connection: idle, active, idle, closed when the connection drops', () => {
    const { local } = localStandIn();
    const orchestrator = new SessionsElsewhere(local);
    const heard: StatusChange[] = [];
    orchestrator.onStatusChanged((change) => heard.push(change));
    orchestrator.connected('s-remote');
    orchestrator.presentations('s-remote', 2);
    orchestrator.connected('s-remote'); // a later report changes nothing
    expect(orchestrator.status('s-remote')).toBe('active');
    expect(orchestrator.runningElsewhere()).toEqual(['s-remote']);
    orchestrator.presentations('s-remote', 0);
    orchestrator.disconnected('s-remote');
    expect(heard.map((change) => `${change.previous}→${change.status}`)).toEqual([
      'closed→idle',
      'idle→active',
      'active→idle',
      'idle→closed',
    ]);
    expect(orchestrator.status('s-remote')).toBe('closed');
    expect(orchestrator.runningElsewhere()).toEqual([]);
  });

  it('leaves its own processes to the local orchestrator and passes on their status changes', () => {
    const { local, listeners, calls } = localStandIn();
    const orchestrator = new SessionsElsewhere(local);
    const heard: StatusChange[] = [];
    orchestrator.onStatusChanged((change) => heard.push(change));
    orchestrator.connected('s-local');
    orchestrator.presentations('s-local', 1);
    orchestrator.disconnected('s-local');
    void orchestrator.stop('s-local');
    listeners.emit({ sessionId: 's-local', status: 'closed', previous: 'idle' });
    expect(calls).toEqual(['connected s-local', 'presentations s-local 1', 'disconnected s-local', 'stop s-local']);
    expect(heard).toEqual([{ sessionId: 's-local', status: 'closed', previous: 'idle' }]);
  });

  it('neither starts nor stops a session that runs elsewhere, and refuses a count that is not a whole number', async () => {
    const { local, calls } = localStandIn();
    const orchestrator = new SessionsElsewhere(local);
    orchestrator.connected('s-remote');
    expect((await orchestrator.start({ sessionId: 's-remote', workspaceId: 'w', cwd: '/elsewhere' })).isOk()).toBe(
      true,
    );
    await orchestrator.stop('s-remote');
    expect(calls).toEqual([]);
    expect(orchestrator.status('s-remote')).toBe('idle');
    expect(() => orchestrator.presentations('s-remote', -1)).toThrow(RangeError);
  });

  it('asks a session elsewhere to stop over its connection, and resolves once that connection drops', async () => {
    const { local, calls } = localStandIn();
    const asked: string[] = [];
    const orchestrator = new SessionsElsewhere(local, { askToStop: (sessionId) => asked.push(sessionId) });
    orchestrator.connected('s-remote');
    let stopped = false;
    const stopping = orchestrator.stop('s-remote').then(() => (stopped = true));
    expect(asked).toEqual(['s-remote']);
    await Promise.resolve();
    expect(stopped).toBe(false);
    orchestrator.disconnected('s-remote');
    await stopping;
    expect(orchestrator.status('s-remote')).toBe('closed');
    expect(calls).toEqual([]);
  });

  it('stops waiting for a session elsewhere that does not go, and leaves it running', async () => {
    const { local } = localStandIn();
    const orchestrator = new SessionsElsewhere(local, { askToStop: () => undefined, stopWaitMs: 1 });
    orchestrator.connected('s-remote');
    await orchestrator.stop('s-remote');
    expect(orchestrator.status('s-remote')).toBe('idle');
  });

  it('once this coordinator is leaving, a session elsewhere that drops is forgotten, not closed', () => {
    const { local } = localStandIn();
    const orchestrator = new SessionsElsewhere(local);
    const heard: StatusChange[] = [];
    orchestrator.connected('s-remote');
    orchestrator.onStatusChanged((change) => heard.push(change));
    orchestrator.leave();
    orchestrator.disconnected('s-remote');
    expect(heard).toEqual([]);
    expect(orchestrator.runningElsewhere()).toEqual([]);
  });
});
