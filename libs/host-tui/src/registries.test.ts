import { describe, expect, it } from 'vitest';
import type { CompletionSource, TuiCommand } from '@pi/plugin-api';
import { CommandRegistry } from './command-registry';
import { CompletionRegistry } from './completion-registry';
import { SlotRegistry } from './slot-registry';
import { ToolRendererRegistry } from './tool-renderer-registry';

const command = (id: string, slash?: string): TuiCommand => ({
  id,
  description: id,
  ...(slash === undefined ? {} : { slash }),
  run: () => undefined,
});

describe('commands', () => {
  it('finds a slash command with its arguments, and says which slash name is unknown', () => {
    const commands = new CommandRegistry();
    commands.register('@t/models', command('models.select', 'model'));
    expect(commands.parseSlash('/model offline/echo ')).toMatchObject({
      command: { id: 'models.select' },
      args: 'offline/echo',
    });
    expect(commands.parseSlash('/nope')).toEqual({ unknown: 'nope' });
    // An unknown name with arguments is text for the model (the offline model's `/tool name {json}`).
    expect(commands.parseSlash('/tool read {"path":"a"}')).toBeUndefined();
    expect(commands.parseSlash('not a command')).toBeUndefined();
  });

  it('reads a slash name with a colon, as a skill command has (/skill:name)', () => {
    const commands = new CommandRegistry();
    commands.register('@t/a', command('skills.pdf', 'skill:pdf'));
    expect(commands.parseSlash('/skill:pdf summarize it')).toMatchObject({
      command: { id: 'skills.pdf' },
      args: 'summarize it',
    });
    expect(commands.parseSlash('/skill:nope')).toEqual({ unknown: 'skill:nope' });
  });

  it('refuses a second command with a taken id or slash name, naming both plugins', () => {
    const commands = new CommandRegistry();
    commands.register('@t/a', command('x.run', 'x'));
    expect(() => commands.register('@t/b', command('x.run'))).toThrow(
      /"x.run" of "@t\/b" is already registered by "@t\/a"/,
    );
    expect(() => commands.register('@t/b', command('y.run', 'x'))).toThrow(/"\/x"/);
  });

  it('disposing a registration removes exactly that command', () => {
    const commands = new CommandRegistry();
    const remove = commands.register('@t/a', command('a.one', 'one'));
    commands.register('@t/a', command('a.two', 'two'));
    remove();
    expect(commands.list().map((entry) => entry.id)).toEqual(['a.two']);
    expect(commands.bySlash('one')).toBeUndefined();
  });
});

describe('completion sources', () => {
  const source = (trigger: string, label: string): CompletionSource => ({
    trigger,
    complete: () => [{ insert: label }],
  });

  it('the latest source for a trigger is in force, one per trigger, and removing it falls back to the previous', () => {
    const sources = new CompletionRegistry();
    const files = source('@', 'files');
    const symbols = source('@', 'symbols');
    const commands = source('/', 'commands');
    sources.add('@t/files', files);
    sources.add('@t/commands', commands);
    const remove = sources.add('@t/symbols', symbols);
    expect(sources.active().map((entry) => [entry.owner, entry.source])).toEqual([
      ['@t/symbols', symbols],
      ['@t/commands', commands],
    ]);
    remove();
    expect(sources.active().map((entry) => entry.source)).toEqual([files, commands]);
  });

  it('disposing a source removes exactly it, and a trigger that is not one visible character is refused', () => {
    const sources = new CompletionRegistry();
    const remove = sources.add('@t/a', source('@', 'a'));
    const kept = source('#', 'b');
    sources.add('@t/b', kept);
    remove();
    expect(sources.active().map((entry) => entry.source)).toEqual([kept]);
    for (const trigger of ['', '@@', ' ', '\n']) {
      expect(() => sources.add('@t/c', source(trigger, 'c'))).toThrow(/"@t\/c" needs one trigger character/);
    }
    expect(() => sources.add('@t/c', source('🐢', 'c'))).not.toThrow();
  });
});

describe('tool renderers', () => {
  it('the latest renderer for a tool wins, and removing it falls back to the previous one', () => {
    const renderers = new ToolRendererRegistry();
    const first = { renderCall: () => ({ render: () => ['first'] }) };
    const second = { renderCall: () => ({ render: () => ['second'] }) };
    renderers.add('bash', first);
    const remove = renderers.add('bash', second);
    expect(renderers.get('bash')).toBe(second);
    remove();
    expect(renderers.get('bash')).toBe(first);
  });
});

describe('slots', () => {
  it('a widget that throws disappears, is reported once, and its slot keeps the others', () => {
    const failures: string[] = [];
    const slots = new SlotRegistry((owner, message) => failures.push(`${owner}: ${message}`));
    slots.add('@t/good', 'footer', { render: () => ['ok'] });
    slots.add('@t/bad', 'footer', {
      render: () => {
        throw new Error('broken');
      },
    });
    const fit = (line: string) => line;
    expect(slots.render('footer', 20, fit)).toEqual(['ok']);
    expect(slots.render('footer', 20, fit)).toEqual(['ok']);
    expect(failures).toEqual(['@t/bad: footer widget threw: broken']);
  });

  it('disposing a widget removes exactly it', () => {
    const slots = new SlotRegistry(() => undefined);
    const remove = slots.add('@t/a', 'status', { render: () => ['a'] });
    slots.add('@t/b', 'status', { render: () => ['b'] });
    remove();
    expect(slots.render('status', 10, (line) => line)).toEqual(['b']);
  });
});
