import { describe, expect, it } from 'vitest';
import { parseCodingPrompt } from './offline-coding-prompts';

describe('parseCodingPrompt', () => {
  it('reads a file', () => {
    expect(parseCodingPrompt('read README.md')).toEqual({ name: 'read', arguments: { path: 'README.md' } });
    expect(parseCodingPrompt('Read the file "docs/my notes.md"')).toEqual({
      name: 'read',
      arguments: { path: 'docs/my notes.md' },
    });
  });

  it('runs a command, bare or in backticks', () => {
    expect(parseCodingPrompt('run ls')).toEqual({ name: 'bash', arguments: { command: 'ls' } });
    expect(parseCodingPrompt('run `echo hi | wc -c`')).toEqual({
      name: 'bash',
      arguments: { command: 'echo hi | wc -c' },
    });
  });

  it('replaces text in a file, once or everywhere, quoted when the text holds " with "', () => {
    expect(parseCodingPrompt('replace hello with goodbye in file greet.txt')).toEqual({
      name: 'edit',
      arguments: { path: 'greet.txt', oldText: 'hello', newText: 'goodbye' },
    });
    expect(parseCodingPrompt('replace "a with b" with `c d` in src/x.ts')).toEqual({
      name: 'edit',
      arguments: { path: 'src/x.ts', oldText: 'a with b', newText: 'c d' },
    });
    expect(parseCodingPrompt('replace all foo with bar in the file a.ts')).toEqual({
      name: 'edit',
      arguments: { path: 'a.ts', oldText: 'foo', newText: 'bar', replaceAll: true },
    });
    expect(parseCodingPrompt('replace TODO with "" in a.ts')).toEqual({
      name: 'edit',
      arguments: { path: 'a.ts', oldText: 'TODO', newText: '' },
    });
  });

  it('lists files, here or in a directory', () => {
    expect(parseCodingPrompt('list files')).toEqual({ name: 'ls', arguments: {} });
    expect(parseCodingPrompt('list the files in src')).toEqual({ name: 'ls', arguments: { path: 'src' } });
    expect(parseCodingPrompt('ls docs')).toEqual({ name: 'ls', arguments: { path: 'docs' } });
  });

  it('finds by glob and greps by regular expression, optionally in a path', () => {
    expect(parseCodingPrompt('find *.ts')).toEqual({ name: 'find', arguments: { pattern: '*.ts' } });
    expect(parseCodingPrompt('find *.md in docs')).toEqual({
      name: 'find',
      arguments: { pattern: '*.md', path: 'docs' },
    });
    expect(parseCodingPrompt('grep TODO')).toEqual({ name: 'grep', arguments: { pattern: 'TODO' } });
    expect(parseCodingPrompt('grep "fix me" in src')).toEqual({
      name: 'grep',
      arguments: { pattern: 'fix me', path: 'src' },
    });
  });

  it('leaves other prompts alone', () => {
    expect(parseCodingPrompt('read me a story')).toBeNull();
    expect(parseCodingPrompt('find me a restaurant nearby')).toBeNull();
    expect(parseCodingPrompt('please read README.md')).toBeNull();
    expect(parseCodingPrompt('replace the tyres')).toBeNull();
    expect(parseCodingPrompt('hello')).toBeNull();
  });
});
