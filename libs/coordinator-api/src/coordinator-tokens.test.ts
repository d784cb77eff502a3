import { describe, expect, it } from 'vitest';
import { SessionDirectory } from '@pi/session-directory';
import { SessionPresence, coordinatorTokens } from './index';

describe('the coordinator API', () => {
  it('names the services a coordinator with the default manifest serves', () => {
    expect(coordinatorTokens).toEqual({ SessionDirectory, SessionPresence });
    expect(SessionPresence.id).toBe('session-presence');
  });

  it('takes a presence report of a whole, bounded number of presentations, whether it is busy, and nothing else', () => {
    const report = SessionPresence.exposure.methods.report?.args[0];
    expect(report?.safeParse({ presentations: 2 }).success).toBe(true);
    expect(report?.safeParse({ presentations: 0, busy: true }).success).toBe(true);
    for (const bad of [
      { presentations: -1 },
      { presentations: 1.5 },
      { presentations: 1e9 },
      {},
      { presentations: 1, sessionId: 's' },
      { presentations: 1, busy: 'yes' },
    ]) {
      expect(report?.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });
});
