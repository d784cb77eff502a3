import { describe, expect, it } from 'vitest';
import { Editor } from '@pi/editor';
import { CommandRegistry } from './command-registry';
import { PromptSubmission } from './prompt-submission';

/** A submission whose connection is down until `connect`, recording the prompts its handler hears. */
function disconnectedSubmission() {
  let connected = false;
  const heard: string[] = [];
  const submission = new PromptSubmission({
    commands: new CommandRegistry(),
    editor: new Editor(),
    notify: () => undefined,
    connected: () => connected,
  });
  submission.onSubmit((text, _context, action) => void heard.push(`${action}:${text}`));
  const connect = () => {
    connected = true;
    submission.connectionChanged();
  };
  return { submission, heard, connect };
}

describe('prompts waiting for the connection', () => {
  it('every caller waiting is woken when it comes up, not only the latest', async () => {
    const { submission, heard, connect } = disconnectedSubmission();
    const first = submission.submitWhenConnected(['first']);
    const second = submission.submitWhenConnected(['second']);
    connect();
    await Promise.all([first, second]);
    expect(heard.sort()).toEqual(['followUp:first', 'followUp:second']);
  });

  it('every caller waiting ends without sending when the host stops', async () => {
    const { submission, heard } = disconnectedSubmission();
    const waiting = [submission.submitWhenConnected(['first']), submission.submitWhenConnected(['second'])];
    submission.stop();
    await Promise.all(waiting);
    expect(heard).toEqual([]);
  });
});
