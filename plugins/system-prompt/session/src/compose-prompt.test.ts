import { describe, expect, it } from 'vitest';
import { composeSystemPrompt } from './compose-prompt';
import { defaultSystemPrompt, summaryOf, type PromptTool } from './default-prompt';
import type { LoadedPromptFile, PromptFiles } from './prompt-files';

const environment = { cwd: '/work/repo', platform: 'linux', date: '2026-12-02' };
const noFiles: PromptFiles = { contextFiles: [], customPrompt: null, appendedPrompt: null, warnings: [] };
const file = (path: string, text: string): LoadedPromptFile => ({ path, display: path, chars: text.length, text });
const tool = (name: string, description: string): PromptTool => ({ name, description });
const coreTools = ['read', 'write', 'edit', 'ls', 'find', 'grep', 'bash'].map((name) =>
  tool(name, `Does ${name}. More detail that stays in the tool schema.`),
);

describe('the default system prompt', () => {
  it("lists every tool offered, a plugin's too, by the first sentence of its description", () => {
    const prompt = defaultSystemPrompt([
      ...coreTools,
      tool('todo', 'Keep the task list.\nIt is shown beside the transcript.'),
    ]);
    expect(prompt).toContain('You are pi, a coding agent.');
    expect(prompt).toContain('- read: Does read.\n');
    expect(prompt).toContain('- todo: Keep the task list.\n');
    expect(prompt).not.toContain('More detail');
    expect(prompt).toContain('find files with grep, find and ls');
    expect(prompt).toContain('Change existing files with edit');
  });

  it('gives guidelines only for the tools it has', () => {
    const prompt = defaultSystemPrompt([tool('read', 'Reads.')]);
    expect(prompt).toContain('- Read a file before you change it.');
    expect(prompt).not.toMatch(/\bbash\b|\bedit\b|\bgrep\b|question tool/);
    expect(defaultSystemPrompt([])).toContain('No tools are available');
  });
});

describe('summaryOf', () => {
  it('is the first sentence on one line, or the whole text without one', () => {
    expect(summaryOf('Run a command.  It is killed after 2 min.')).toBe('Run a command.');
    expect(summaryOf('Read file v1.2 of\n  the thing')).toBe('Read file v1.2 of the thing');
  });
});

describe('the composed system prompt', () => {
  it('is the default prompt, the context files from general to specific under their paths, then where and when', () => {
    const prompt = composeSystemPrompt(
      {
        ...noFiles,
        contextFiles: [file('/home/u/AGENTS.md', 'Be brief.'), file('/work/repo/AGENTS.md', 'Use tabs.\n')],
      },
      coreTools,
      environment,
    );
    expect(prompt.startsWith('You are pi')).toBe(true);
    expect(prompt.indexOf('## /home/u/AGENTS.md\n\nBe brief.')).toBeLessThan(
      prompt.indexOf('## /work/repo/AGENTS.md\n\nUse tabs.'),
    );
    expect(prompt.endsWith('Working directory: /work/repo\nPlatform: linux\nDate: 2026-12-02')).toBe(true);
  });

  it("starts with the user's SYSTEM.md instead of the default, and adds APPEND_SYSTEM.md after it", () => {
    const prompt = composeSystemPrompt(
      { ...noFiles, customPrompt: file('SYSTEM.md', 'You review code.\n'), appendedPrompt: file('A.md', 'Be kind.') },
      coreTools,
      environment,
    );
    expect(prompt).toBe(
      'You review code.\n\nBe kind.\n\nWorking directory: /work/repo\nPlatform: linux\nDate: 2026-12-02',
    );
  });

  it('has no project context section without context files', () => {
    expect(composeSystemPrompt(noFiles, coreTools, environment)).not.toContain('# Project context');
  });
});
