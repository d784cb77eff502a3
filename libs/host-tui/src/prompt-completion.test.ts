import { afterEach, describe, expect, it, vi } from 'vitest';
import { Editor } from '@pi/editor';
import type { CompletionItem, CompletionSource, SubmitAction, TuiCommand, TuiTheme } from '@pi/plugin-api';
import { decodeInput, defaultKeymap } from '@pi/terminal';
import { CommandRegistry } from './command-registry';
import { CompletionRegistry } from './completion-registry';
import { PromptCompletion } from './prompt-completion';
import { slashCompletionSource, slashItems } from './slash-completion';

const plain: TuiTheme = { fg: (_color, text) => text, bold: (text) => text };
const KEYS = { up: '\x1b[A', down: '\x1b[B', tab: '\t', enter: '\r', escape: '\x1b', backspace: '\x7f' } as const;

afterEach(() => {
  vi.useRealTimers();
});

const command = (slash: string, extra: Partial<TuiCommand> = {}): TuiCommand => ({
  id: `t.${slash}`,
  slash,
  description: `the ${slash} command`,
  run: () => undefined,
  ...extra,
});

/** An editor with the completion menu in front of it, driven by raw input as the host drives it. */
function promptWith(sources: Record<string, CompletionSource>, rows = 8) {
  const editor = new Editor();
  const registry = new CompletionRegistry();
  for (const [owner, source] of Object.entries(sources)) registry.add(owner, source);
  const sent: Array<{ text: string; action: SubmitAction }> = [];
  const failures: string[] = [];
  let repaints = 0;
  const completion = new PromptCompletion({
    editor,
    sources: registry,
    keymap: defaultKeymap,
    rows: () => rows,
    changed: () => void (repaints += 1),
    fail: (owner, message) => void failures.push(`${owner}: ${message}`),
    submit: (text, action) => void sent.push({ text, action }),
  });
  return {
    editor,
    sent,
    failures,
    get repaints() {
      return repaints;
    },
    type(input: string) {
      for (const event of decodeInput(input)) {
        if (event.type !== 'key') continue;
        completion.update();
        if (completion.handleKey(event)) continue;
        const result = editor.handle(event, defaultKeymap);
        if (result.kind === 'submit') sent.push({ text: result.text, action: result.action });
      }
      completion.update();
    },
    menu: () => completion.lines(plain),
    text: () => editor.text(),
  };
}

const commands = () => {
  const registry = new CommandRegistry();
  for (const slash of ['model', 'mock', 'help', 'compact']) registry.register('@t', command(slash));
  registry.register('@t', command('name', { arguments: { hint: '<title>', required: true } }));
  return registry;
};

describe('the / menu', () => {
  it('lists every slash command on a bare /, in name order, with the argument hint of those that take some', () => {
    const prompt = promptWith({ host: slashCompletionSource(commands()) });
    prompt.type('/');
    expect(prompt.menu().map((line) => line.slice(0, 16).trimEnd())).toEqual([
      '› /compact',
      '  /help',
      '  /mock',
      '  /model',
      '  /name <title>',
    ]);
  });

  it('narrows as the name is typed: names starting with it (an exact one first), then names containing it', () => {
    expect(slashItems([command('models'), command('model'), command('remodel')], 'model').map((i) => i.label)).toEqual([
      '/model',
      '/models',
      '/remodel',
    ]);
    expect(slashItems([command('model')], 'zz')).toEqual([]);
  });

  it('Down and Up move the highlight without walking the prompt history', () => {
    const prompt = promptWith({ host: slashCompletionSource(commands()) });
    prompt.type('earlier prompt\r');
    prompt.type('/');
    prompt.type('m');
    // Typing on highlights the best match again (the highlight was never moved by hand).
    expect(prompt.menu()[0]).toMatch(/^› \/mock/);
    prompt.type(KEYS.down);
    expect(prompt.menu()[1]).toMatch(/^› \/model/);
    prompt.type(KEYS.up + KEYS.up);
    // Names containing `m` follow those starting with it; up from the first wraps to the last.
    expect(prompt.menu().map((line) => line.slice(0, 16).trimEnd())).toEqual([
      '  /mock',
      '  /model',
      '  /compact',
      '› /name <title>',
    ]);
    expect(prompt.text()).toBe('/m');
  });

  it('Enter runs the highlighted command that needs nothing more, and the editor empties', () => {
    const prompt = promptWith({ host: slashCompletionSource(commands()) });
    prompt.type('/mo' + KEYS.down + KEYS.enter);
    expect(prompt.sent).toEqual([{ text: '/model', action: 'submit' }]);
    expect(prompt.text()).toBe('');
    expect(prompt.menu()).toEqual([]);
  });

  it('Enter on an exact name runs it (the exact name is highlighted first)', () => {
    const prompt = promptWith({ host: slashCompletionSource(commands()) });
    prompt.type('/model' + KEYS.enter);
    expect(prompt.sent).toEqual([{ text: '/model', action: 'submit' }]);
  });

  it('Enter on a command whose arguments are required inserts it to type them; then Enter sends the whole line', () => {
    const prompt = promptWith({ host: slashCompletionSource(commands()) });
    prompt.type('/na' + KEYS.enter);
    expect(prompt.sent).toEqual([]);
    expect(prompt.text()).toBe('/name ');
    expect(prompt.menu()).toEqual([]);
    prompt.type('my title' + KEYS.enter);
    expect(prompt.sent).toEqual([{ text: '/name my title', action: 'submit' }]);
  });

  it('Tab inserts the highlighted command with a space and runs nothing', () => {
    const prompt = promptWith({ host: slashCompletionSource(commands()) });
    prompt.type('/mo' + KEYS.tab);
    expect(prompt.text()).toBe('/mock ');
    expect(prompt.sent).toEqual([]);
  });

  it('Escape closes the menu and keeps the text; typing on opens it again', () => {
    const prompt = promptWith({ host: slashCompletionSource(commands()) });
    prompt.type('/m');
    prompt.type(KEYS.escape);
    expect(prompt.menu()).toEqual([]);
    expect(prompt.text()).toBe('/m');
    prompt.type('o');
    expect(prompt.menu()).toHaveLength(2);
  });

  it('closes when nothing matches, so Enter sends the text as typed', () => {
    const prompt = promptWith({ host: slashCompletionSource(commands()) });
    prompt.type('/zz');
    expect(prompt.menu()).toEqual([]);
    prompt.type(KEYS.enter);
    expect(prompt.sent).toEqual([{ text: '/zz', action: 'submit' }]);
  });
});

describe('a completion source that answers later', () => {
  /** A source whose answers the test gives, by query, in any order. */
  function heldSource(options: { debounceMs?: number } = {}) {
    const asked: Array<{ query: string; signal: AbortSignal; answer: (items: CompletionItem[]) => void }> = [];
    const fails: Array<(error: Error) => void> = [];
    const source: CompletionSource = {
      trigger: '@',
      ...options,
      complete: (query, signal) =>
        new Promise<CompletionItem[]>((resolve, reject) => {
          asked.push({ query, signal, answer: resolve });
          fails.push(reject);
        }),
    };
    return { source, asked, fails };
  }
  const files = (...paths: string[]) => paths.map((path) => ({ insert: `@${path} ` }));
  const settled = () => new Promise((resolve) => setImmediate(resolve));

  it('shows only the latest answer: an older one arriving late is dropped, and its question was aborted', async () => {
    const { source, asked } = heldSource();
    const prompt = promptWith({ '@t/files': source });
    prompt.type('see @a');
    prompt.type('p');
    expect(asked.map((question) => question.query)).toEqual(['', 'a', 'ap']);
    expect(asked.map((question) => question.signal.aborted)).toEqual([true, true, false]);
    asked[2]?.answer(files('src/app.ts'));
    asked[1]?.answer(files('a.txt'));
    await settled();
    expect(prompt.menu()).toEqual(['› @src/app.ts']);
    expect(prompt.repaints).toBe(1);
  });

  it('Enter inserts the highlighted path with a space and sends nothing; a directory goes on to its contents', async () => {
    const { source, asked } = heldSource();
    const prompt = promptWith({ '@t/files': source });
    prompt.type('read @s');
    asked.at(-1)?.answer([{ insert: '@src/' }, ...files('setup.ts')]);
    await settled();
    prompt.type(KEYS.down + KEYS.enter);
    expect(prompt.text()).toBe('read @setup.ts ');
    expect(prompt.sent).toEqual([]);
    prompt.type(KEYS.backspace.repeat(9) + 's');
    asked.at(-1)?.answer([{ insert: '@src/' }]);
    await settled();
    prompt.type(KEYS.tab);
    expect(prompt.text()).toBe('read @src/');
    expect(asked.at(-1)?.query).toBe('src/');
  });

  it('a failing source closes its menu, is reported with its plugin, and typing goes on', async () => {
    const { source, fails } = heldSource();
    const prompt = promptWith({ '@t/files': source });
    prompt.type('@x');
    fails.at(-1)?.(new Error('session unreachable'));
    await settled();
    expect(prompt.menu()).toEqual([]);
    expect(prompt.failures).toEqual(['@t/files: completing "@x": session unreachable']);
    prompt.type('y' + KEYS.enter);
    expect(prompt.sent).toEqual([{ text: '@xy', action: 'submit' }]);
  });

  it('a source that throws at once is reported the same way', () => {
    const prompt = promptWith({
      '@t/broken': {
        trigger: '#',
        complete: () => {
          throw new Error('bug');
        },
      },
    });
    prompt.type('#1');
    expect(prompt.menu()).toEqual([]);
    expect(prompt.failures).toEqual(['@t/broken: completing "#": bug', '@t/broken: completing "#1": bug']);
  });

  it('with a debounce, asks once for what was typed in a burst', () => {
    vi.useFakeTimers();
    const { source, asked } = heldSource({ debounceMs: 50 });
    const prompt = promptWith({ '@t/files': source });
    prompt.type('@a');
    prompt.type('p');
    prompt.type('p');
    expect(asked).toEqual([]);
    vi.advanceTimersByTime(50);
    expect(asked.map((question) => question.query)).toEqual(['app']);
  });
});
