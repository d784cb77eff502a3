import { describe, expect, it } from 'vitest';
import { webSocketUrlProblem } from './websocket-url';

describe('webSocketUrlProblem', () => {
  it('accepts ws: and wss: URLs with a host, and says what is wrong with anything else', () => {
    expect(webSocketUrlProblem('wss://coordinator.example:7443/')).toBeUndefined();
    expect(webSocketUrlProblem('ws://127.0.0.1:9000')).toBeUndefined();
    expect(webSocketUrlProblem('coordinator:7443')).toBe(
      'takes a ws:// or wss:// URL, not coordinator: "coordinator:7443"',
    );
    expect(webSocketUrlProblem('https://host/')).toBe('takes a ws:// or wss:// URL, not https: "https://host/"');
    expect(webSocketUrlProblem('not a url')).toBe(
      'takes a ws:// or wss:// URL such as wss://host:7443/, not "not a url"',
    );
  });
});
