import { describe, expect, it } from 'vitest';
import { parseToolCommand } from './offline-tool-command';

describe('parseToolCommand', () => {
  it('reads the tool name and JSON object arguments', () => {
    expect(parseToolCommand('/tool read {"path": "README.md", "limit": 3}')).toEqual({
      kind: 'call',
      name: 'read',
      arguments: { path: 'README.md', limit: 3 },
    });
  });

  it('passes empty arguments when none are given', () => {
    expect(parseToolCommand('  /tool todo_list  ')).toEqual({ kind: 'call', name: 'todo_list', arguments: {} });
  });

  it('explains a missing name, invalid JSON and non-object arguments', () => {
    expect(parseToolCommand('/tool')).toMatchObject({ kind: 'invalid', reason: expect.stringContaining('usage') });
    expect(parseToolCommand('/tool read {path}')).toMatchObject({
      kind: 'invalid',
      reason: expect.stringContaining('not valid JSON'),
    });
    expect(parseToolCommand('/tool read [1]')).toMatchObject({
      kind: 'invalid',
      reason: expect.stringContaining('JSON object'),
    });
  });

  it('ignores prompts that are not tool commands', () => {
    expect(parseToolCommand('please use /tool read')).toBeNull();
    expect(parseToolCommand('/toolbox')).toBeNull();
  });
});
