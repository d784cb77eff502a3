import { describe, expect, it } from 'vitest';
import { fileTimingsOf } from './file-timings';
import { fileTable, formatTable, projectTable } from './profile-table';
import { taskTimingsOf } from './task-timings';

describe('the test profile', () => {
  it('reads Nx profile tasks and skips its other trace events', () => {
    const trace = [
      { name: 'thread_name', ph: 'M', args: { name: 'Main' } },
      {
        name: '@pi/a:test',
        ph: 'X',
        dur: 2_500_000,
        args: { target: { project: '@pi/a', target: 'test' }, status: 'success' },
      },
      { name: '@pi/a:lint', ph: 'X', dur: 500_000, args: { target: { project: '@pi/a', target: 'lint' } } },
    ];
    expect(taskTimingsOf(trace)).toEqual([
      { project: '@pi/a', target: 'test', ms: 2500, status: 'success' },
      { project: '@pi/a', target: 'lint', ms: 500, status: 'unknown' },
    ]);
    expect(() => taskTimingsOf({ not: 'a trace' })).toThrow('JSON array');
  });

  it('reads vitest file durations relative to the workspace', () => {
    const report = {
      testResults: [
        {
          name: '/w/libs/a/src/x.test.ts',
          startTime: 1000,
          endTime: 4000,
          assertionResults: [{ status: 'passed' }, { status: 'failed' }],
        },
        { name: '/w/libs/a/src/broken.test.ts', startTime: 'never' },
      ],
    };
    expect(fileTimingsOf(report, '/w')).toEqual([{ file: 'libs/a/src/x.test.ts', ms: 3000, tests: 2, failed: 1 }]);
    expect(() => fileTimingsOf({}, '/w')).toThrow('testResults');
  });

  it('lists projects slowest first with a total per target', () => {
    const table = projectTable([
      { project: '@pi/fast', target: 'test', ms: 1000, status: 'success' },
      { project: '@pi/slow', target: 'test', ms: 9000, status: 'success' },
      { project: '@pi/slow', target: 'typecheck', ms: 3000, status: 'success' },
    ]);
    const lines = table.split('\n');
    expect(lines[2]).toMatch(/^@pi\/slow\s+-\s+3\.0\s+9\.0\s+12\.0$/);
    expect(lines[3]).toMatch(/^@pi\/fast\s+-\s+-\s+1\.0\s+1\.0$/);
    expect(lines[4]).toMatch(/^\(all projects, task time\)\s+0\.0\s+3\.0\s+10\.0\s+13\.0$/);
  });

  it('lists the slowest files with their share', () => {
    const table = fileTable(
      [
        { file: 'a.test.ts', ms: 3000, tests: 3, failed: 0 },
        { file: 'b.test.ts', ms: 1000, tests: 1, failed: 0 },
      ],
      1,
    );
    expect(table.split('\n').slice(2)).toEqual([
      expect.stringMatching(/^a\.test\.ts\s+3\.0\s+75\.0%\s+3$/),
      expect.stringMatching(/^\(all 2 files\)\s+4\.0\s+100%\s+4$/),
    ]);
  });

  it('pads columns to their widest cell', () => {
    expect(formatTable(['a', 'b'], [['long', '1']])).toBe('a     b\n----  -\nlong  1');
  });
});
