import { describe, expect, it } from 'vitest';
import { fileTimingsOf } from './file-timings';
import { fileTable, formatTable, phaseTable, projectTestTable } from './profile-table';
import { taskTimingsOf } from './task-timings';

describe('the test profile', () => {
  it('reads Nx profile tasks and skips its other trace events', () => {
    const trace = [
      { name: 'thread_name', ph: 'M', args: { name: 'Main' } },
      {
        name: '@pi/a:test',
        ph: 'X',
        ts: 1_000_000,
        dur: 2_500_000,
        args: { target: { project: '@pi/a', target: 'test' }, status: 'success' },
      },
      { name: '@pi/a:lint', ph: 'X', dur: 500_000, args: { target: { project: '@pi/a', target: 'lint' } } },
    ];
    expect(taskTimingsOf(trace)).toEqual([
      { project: '@pi/a', target: 'test', startMs: 1000, ms: 2500, status: 'success' },
      { project: '@pi/a', target: 'lint', startMs: 0, ms: 500, status: 'unknown' },
    ]);
    expect(() => taskTimingsOf({ not: 'a trace' })).toThrow('JSON array');
  });

  it('reads each file’s whole cost from the timings report, import included, and skips malformed entries', () => {
    const report = [
      {
        file: 'libs/a/src/x.test.ts',
        queuedAtMs: 10,
        endedAtMs: 4000,
        prepareMs: 100,
        collectMs: 900,
        runMs: 2000,
        tests: 2,
        failed: 1,
      },
      { file: 'libs/a/src/broken.test.ts', prepareMs: 'never' },
      null,
    ];
    expect(fileTimingsOf(report)).toEqual([
      { file: 'libs/a/src/x.test.ts', ms: 3000, importMs: 1000, tests: 2, failed: 1 },
    ]);
    expect(() => fileTimingsOf({ testResults: [] })).toThrow('JSON array');
  });

  it('gives each target the wall time of its batch, from the first task’s start to the last one’s end', () => {
    const task = (project: string, target: string, startMs: number, ms: number) =>
      ({ project, target, startMs, ms, status: 'success' }) as const;
    const table = phaseTable([
      task('@pi/a', 'lint', 0, 4000),
      task('@pi/b', 'lint', 0, 4000),
      task('@pi/a', 'test', 5000, 2000),
      task('@pi/b', 'test', 5000, 9000),
    ]);
    expect(table.split('\n').slice(2)).toEqual([
      expect.stringMatching(/^lint\s+2\s+4\.0$/),
      expect.stringMatching(/^test\s+2\s+9\.0$/),
    ]);
  });

  it('sums the test files of each project, slowest first', () => {
    const file = (name: string, ms: number, tests: number) => ({ file: name, ms, importMs: 0, tests, failed: 0 });
    const table = projectTestTable(
      [
        file('libs/a/src/x.test.ts', 1000, 2),
        file('libs/b/test/y.test.ts', 2500, 1),
        file('libs/a/src/z.test.ts', 500, 3),
      ],
      (name) => name.split('/').slice(0, 2).join('/'),
    );
    expect(table.split('\n').slice(2)).toEqual([
      expect.stringMatching(/^libs\/b\s+2\.5\s+62\.5%\s+1\s+1$/),
      expect.stringMatching(/^libs\/a\s+1\.5\s+37\.5%\s+2\s+5$/),
    ]);
  });

  it('lists the slowest files with their share', () => {
    const table = fileTable(
      [
        { file: 'a.test.ts', ms: 3000, importMs: 500, tests: 3, failed: 0 },
        { file: 'b.test.ts', ms: 1000, importMs: 200, tests: 1, failed: 0 },
      ],
      1,
    );
    expect(table.split('\n').slice(2)).toEqual([
      expect.stringMatching(/^a\.test\.ts\s+3\.0\s+0\.5\s+75\.0%\s+3$/),
      expect.stringMatching(/^\(all 2 files\)\s+4\.0\s+0\.7\s+100%\s+4$/),
    ]);
  });

  it('pads columns to their widest cell', () => {
    expect(formatTable(['a', 'b'], [['long', '1']])).toBe('a     b\n----  -\nlong  1');
  });
});
