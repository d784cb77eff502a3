import { describe, expect, it } from 'vitest';
import { SessionDirectory } from '@pi/session-directory';
import { SessionControl, SessionEnrollment, SessionPresence, coordinatorTokens } from './index';

describe('the coordinator API', () => {
  it('names the services a coordinator with the default manifest serves', () => {
    expect(coordinatorTokens).toEqual({ SessionDirectory, SessionPresence, SessionEnrollment, SessionControl });
    expect(SessionControl.id).toBe('session-control');
    expect(SessionPresence.id).toBe('session-presence');
    expect(SessionEnrollment.id).toBe('session-enrollment');
  });

  it('takes a presence report of a whole, bounded number of presentations, whether it is busy, its wss: URL, and nothing else', () => {
    const report = SessionPresence.exposure.methods.report?.args[0];
    expect(report?.safeParse({ presentations: 2 }).success).toBe(true);
    expect(report?.safeParse({ presentations: 0, busy: true }).success).toBe(true);
    expect(report?.safeParse({ presentations: 0, url: 'wss://build-7.internal:7444/' }).success).toBe(true);
    for (const bad of [
      { presentations: -1 },
      { presentations: 1.5 },
      { presentations: 1e9 },
      {},
      { presentations: 1, sessionId: 's' },
      { presentations: 1, busy: 'yes' },
      { presentations: 1, url: 'ws://plain.example:80/' },
      { presentations: 1, url: `wss://${'a'.repeat(2048)}` },
    ]) {
      expect(report?.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });

  it('tells sessions the replicas’ ws:// or wss:// URLs, a bounded list', () => {
    const state = SessionControl.exposure.state['state'];
    expect(state?.safeParse({ replicas: ['wss://b.internal:7443/'] }).success).toBe(true);
    for (const bad of [{}, { replicas: ['https://b/'] }, { replicas: Array(65).fill('wss://b/') }])
      expect(state?.safeParse(bad).success, JSON.stringify(bad).slice(0, 60)).toBe(false);
  });

  it('sends a session only stop events that name a session', () => {
    const event = SessionControl.exposure.events['events'];
    expect(event?.safeParse({ type: 'stop', sessionId: 's-1' }).success).toBe(true);
    for (const bad of [{ type: 'stop' }, { type: 'kill', sessionId: 's-1' }, { type: 'stop', sessionId: 's', x: 1 }])
      expect(event?.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
  });

  it('enrolls an absolute project directory with an optional id and title, and refuses anything else', () => {
    const request = SessionEnrollment.exposure.methods.enroll?.args[0];
    expect(request?.safeParse({ cwd: '/srv/project' }).success).toBe(true);
    expect(request?.safeParse({ cwd: '/srv/project', sessionId: 's-1', title: 'Remote' }).success).toBe(true);
    for (const bad of [{}, { cwd: 'relative' }, { cwd: '/p', sessionId: '../x' }, { cwd: '/p', workspaceId: 'w' }]) {
      expect(request?.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });
});
