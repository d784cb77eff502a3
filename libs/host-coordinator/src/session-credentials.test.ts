import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sessionCredentials } from './session-credentials';

const red = { sessionId: 's-red', workspaceId: 'w-red' };

describe('session credentials', () => {
  it('verifies what the same secret issued, also after a restart (a new instance over the same secret)', () => {
    const secret = randomBytes(32);
    const credential = sessionCredentials(secret).issue(red);
    expect(sessionCredentials(secret).verify(credential)).toEqual(red);
  });

  it('refuses a credential of another secret, a tampered payload or MAC, and garbage', () => {
    const credentials = sessionCredentials(randomBytes(32));
    const credential = credentials.issue(red);
    const [payload, mac] = credential.split('.') as [string, string];
    const forgedPayload = Buffer.from(JSON.stringify({ sessionId: 's-red', workspaceId: 'w-blue' })).toString(
      'base64url',
    );
    for (const bad of [
      sessionCredentials(randomBytes(32)).issue(red),
      `${forgedPayload}.${mac}`,
      `${payload}.${mac.slice(0, -2)}AA`,
      `${payload}.${mac}.extra`,
      payload,
      '',
      'x'.repeat(5000),
    ]) {
      expect(credentials.verify(bad), bad.slice(0, 40)).toBeUndefined();
    }
  });

  it('refuses a secret too short to sign with', () => {
    expect(() => sessionCredentials(randomBytes(16))).toThrow(/at least 32 bytes/);
  });
});
