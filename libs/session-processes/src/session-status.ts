/**
 * Where a session process is in its life, as the coordinator sees it: the vocabulary of `SessionStatus` in
 * `@pi/plugin-api`, repeated here because a util may not import a contract (the coordinator app, which imports
 * both, assigns one to the other, so they cannot drift apart unnoticed).
 */
export type SessionStatus = 'starting' | 'active' | 'idle' | 'closed';

/**
 * The only moves a status makes. `closed → idle` is adoption (a process that outlived the coordinator is already
 * running); every other path into `idle` goes through `starting` and the upstream connection.
 */
const TRANSITIONS: Record<SessionStatus, readonly SessionStatus[]> = {
  closed: ['starting', 'idle'],
  starting: ['idle', 'closed'],
  idle: ['active', 'closed'],
  active: ['idle', 'closed'],
};

export function isLegalTransition(from: SessionStatus, to: SessionStatus): boolean {
  return TRANSITIONS[from].includes(to);
}
