import { describe, expect, it } from 'vitest';
import { ConfirmInteraction, MAX_SUMMARY_LENGTH } from '@pi/permissions';
import { bounded, describeCall } from './call-description';

describe('describing a guarded call', () => {
  it('shows bash as its command, whole, and its timeout', () => {
    expect(describeCall('bash', { command: 'git status && ls -la' })).toEqual({
      summary: 'git status && ls -la',
      details: [],
    });
    expect(describeCall('bash', { command: 'npm test', timeout: 10 }).details).toEqual(['times out after 10 s']);
  });

  it('shows write as its file and the size written', () => {
    expect(describeCall('write', { path: 'src/a.ts', content: 'one\ntwo\n' })).toEqual({
      summary: 'src/a.ts',
      details: ['writes 2 lines (8 B)'],
    });
    expect(describeCall('write', { path: 'big.txt', content: 'x'.repeat(3000) }).details).toEqual([
      'writes 1 line (2.9 KiB)',
    ]);
  });

  it('shows edit as its file, the size of the replacement, and the lines it replaces and writes', () => {
    expect(describeCall('edit', { path: 'a.ts', oldText: 'a\nb\nc', newText: 'a\nb\nc\nd\ne' })).toEqual({
      summary: 'a.ts',
      details: ['replaces 3 lines with 5 lines (+2)'],
      diff: '-a\n-b\n-c\n+a\n+b\n+c\n+d\n+e',
    });
    expect(
      describeCall('edit', {
        path: 'a.ts',
        edits: [
          { oldText: 'x\n', newText: '' },
          { oldText: 'y', newText: 'z' },
        ],
      }).diff,
    ).toBe('-x\n-y\n+z');
    expect(describeCall('edit', { file_path: 'a.ts', old_string: 'a\nb', new_string: '' }).details).toEqual([
      'replaces 2 lines with 0 lines (-2)',
    ]);
    expect(describeCall('edit', { path: 'a.ts', oldText: 'x', newText: 'y', replaceAll: true }).details).toEqual([
      'replaces 1 line with 1 line (+0), at every occurrence',
    ]);
    expect(
      describeCall('edit', {
        path: 'a.ts',
        edits: [
          { oldText: 'a', newText: 'b' },
          { oldText: 'c', newText: 'd\ne' },
        ],
      }).details,
    ).toEqual(['2 replacements', 'replaces 1 line with 1 line (+0)', 'replaces 1 line with 2 lines (+1)']);
  });

  it('shows arguments of a shape it does not know as their JSON, so the user still sees what will run', () => {
    expect(describeCall('bash', { script: 'rm -rf /' })).toEqual({ summary: '{"script":"rm -rf /"}', details: [] });
    expect(describeCall('deploy', { target: 'prod' }).summary).toBe('{"target":"prod"}');
  });

  it('cuts a huge command to the contract’s bound with a marker, so the request is still valid', () => {
    const { summary } = describeCall('bash', { command: 'x'.repeat(100_000) });
    expect(summary.length).toBeLessThanOrEqual(MAX_SUMMARY_LENGTH);
    expect(summary).toMatch(/ … \[\d+ more characters not shown\]$/);
    const request = { tool: 'bash', summary, details: [], sessionGrant: 'command', timeoutMs: 1 };
    expect(ConfirmInteraction.request.safeParse(request).success).toBe(true);
  });

  it('counts what the marker hides exactly', () => {
    const cut = bounded('abcdefghij'.repeat(10), 60);
    const hidden = Number(/\[(\d+) more/.exec(cut)?.[1]);
    expect(cut.length).toBeLessThanOrEqual(60);
    expect(cut.indexOf(' … [')).toBe(100 - hidden);
    expect(bounded('short', 60)).toBe('short');
  });
});
