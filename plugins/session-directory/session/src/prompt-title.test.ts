import { describe, expect, it } from 'vitest';
import type { HarnessEvent } from '@pi/plugin-api';
import { MAX_PROMPT_TITLE, firstPromptTitle, titleFromPrompt } from './prompt-title';

const prompt = (text: string, role: 'user' | 'assistant' = 'user'): HarnessEvent => ({
  type: 'entry_appended',
  operationId: 'op-1',
  entry: {
    id: 'e-1',
    parentId: null,
    timestamp: 'now',
    kind: 'message',
    operationId: 'op-1',
    message:
      role === 'user'
        ? { role, content: [{ type: 'text', text }] }
        : { role, content: [{ type: 'text', text }], model: 'm/x', stopReason: 'stop' },
  },
});

/** Lets every promise callback queued so far run. */
const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('a title from the first prompt', () => {
  it('is the prompt on one line, trimmed', () => {
    expect(titleFromPrompt('  fix the build\n\tplease  ')).toBe('fix the build please');
    expect(titleFromPrompt('a\u001b[2Jb')).toBe('a [2Jb');
    expect(titleFromPrompt(' \n ')).toBeUndefined();
  });

  it('is cut near a word boundary with an ellipsis when long, never inside a character', () => {
    const long = titleFromPrompt(`${'word '.repeat(30)}end`) ?? '';
    expect(long.endsWith('word…')).toBe(true);
    expect([...long].length).toBeLessThanOrEqual(MAX_PROMPT_TITLE);
    const emoji = titleFromPrompt('🧑‍💻'.repeat(80)) ?? '';
    expect(emoji).toBe(`${'🧑‍💻'.repeat(MAX_PROMPT_TITLE - 1)}…`);
    expect(titleFromPrompt('x'.repeat(MAX_PROMPT_TITLE))).toBe('x'.repeat(MAX_PROMPT_TITLE));
  });

  it('is suggested once, from the first user prompt with text; a failed send is tried again on flush', async () => {
    const sent: string[] = [];
    let reachable = false;
    let fail = true;
    const title = firstPromptTitle((suggested) => {
      if (!reachable) return undefined;
      sent.push(suggested);
      return fail ? Promise.reject(new Error('unavailable')) : Promise.resolve();
    });
    title.observe(prompt('the answer', 'assistant'));
    title.observe(prompt('   '));
    // A message a plugin recorded (a `!command`'s output) is not the user's prompt.
    const recorded = prompt('$ ls');
    if (recorded.type === 'entry_appended' && recorded.entry.kind === 'message')
      recorded.entry.origin = { namespace: '@pi/chat', data: null };
    title.observe(recorded);
    title.observe(prompt('first question'));
    expect(sent).toEqual([]);
    reachable = true;
    title.flush();
    await settled();
    fail = false;
    title.observe(prompt('second question'));
    title.flush();
    await settled();
    title.flush();
    expect(sent).toEqual(['first question', 'first question']);
  });
});
