import { describe, expect, it } from 'vitest';
import { judge } from './row-report';

const outcome = { what: 'did a thing', counts: ['3 calls'], figures: ['p50 1 ms'] };

describe('judge', () => {
  it('passes a row whose every check holds', () => {
    const report = judge('fuzz', { ...outcome, checks: [{ label: '0 crashes', ok: true }] });
    expect(report).toEqual({ row: 'fuzz', verdict: 'PASS', ...outcome, reasons: [] });
  });

  it('fails a row with the labels of the checks that did not hold', () => {
    const report = judge('kill', {
      ...outcome,
      checks: [
        { label: '0 entries lost', ok: false },
        { label: '0 orphans', ok: true },
        { label: '0 duplicates', ok: false },
      ],
    });
    expect(report).toMatchObject({ verdict: 'FAIL', reasons: ['0 entries lost', '0 duplicates'] });
  });

  it('fails a row that checked nothing', () => {
    expect(judge('clients', { ...outcome, checks: [] })).toMatchObject({
      verdict: 'FAIL',
      reasons: ['the row checked nothing'],
    });
  });
});
