import { describe, expect, it } from 'vitest';
import { RemoteError } from '@pi/plugin-api';
import { compactFailureText, compactedText } from './compact-command';

describe('/compact notices', () => {
  it('say what was saved', () => {
    expect(
      compactedText({ entryId: 'c', tokensBefore: 12_345, tokensAfter: 678, summarizedMessages: 9, keptMessages: 0 }),
    ).toBe('Compacted: ~12,345 → ~678 tokens (9 messages summarized, none kept)');
    expect(
      compactedText({ entryId: 'c', tokensBefore: 900, tokensAfter: 300, summarizedMessages: 4, keptMessages: 2 }),
    ).toBe('Compacted: ~900 → ~300 tokens (4 messages summarized, 2 kept as they are)');
  });

  it('say in words why nothing was compacted, keeping a failed summary’s own message', () => {
    expect(compactFailureText(new RemoteError('busy', 'Operation x is still running'))).toBe(
      'the agent is working: wait until the run ends (or esc interrupts it)',
    );
    expect(compactFailureText(new RemoteError('nothing_to_compact', '…'))).toBe(
      'the conversation is short enough already',
    );
    expect(compactFailureText(new RemoteError('compaction_failed', 'The summary could not be written: HTTP 503'))).toBe(
      'The summary could not be written: HTTP 503',
    );
    expect(compactFailureText(new RemoteError('disconnected', 'gone'))).toBe('gone (disconnected)');
  });
});
