import type { SessionStatus } from '@pi/plugin-api';

export type { SessionStatus };

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
