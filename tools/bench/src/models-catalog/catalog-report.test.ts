import { describe, expect, it } from 'vitest';
import { formatCatalogReport } from './catalog-report';
import type { CatalogRound, PhaseFigures } from './measure-catalog';

const phase = (durationMs: number, maxMs: number): PhaseFigures => ({
  durationMs,
  loop: { maxMs, p99Ms: maxMs, maxStepCpuMs: maxMs / 2 },
  bystander: { calls: 10, maxMs },
});

const round = (root: string, models: number, durationMs: number, outcome: string): CatalogRound => ({
  root,
  models,
  fileBytes: models * 80,
  reload: phase(durationMs, durationMs / 2),
  // A refused catalogue is not edited.
  ...(outcome.endsWith('shown') ? { edit: phase(durationMs / 2, 1) } : {}),
  refresh: phase(durationMs / 4, 1),
  outcome,
});

describe('formatCatalogReport', () => {
  it('gives each size, session and phase run a row of medians over the rounds, smallest catalogue first', () => {
    const lines = formatCatalogReport(
      [
        round('/tmp/before', 60_000, 9000, '60000 models shown'),
        round('/work', 60_000, 50, 'models.json is 4,688 KiB, over the 1,024 KiB limit: not loaded'),
        round('/tmp/before', 1_000, 700, '1000 models shown'),
        round('/tmp/before', 1_000, 500, '1000 models shown'),
        round('/tmp/before', 1_000, 600, '1000 models shown'),
      ],
      (root) => (root === '/work' ? 'this' : root),
    );
    expect(lines[0]).toMatch(
      /^models +file +session +phase +time ms +host loop max ms +host step cpu ms +bystander max ms +calls +shown$/,
    );
    expect(lines.slice(2).map((line) => line.split(/ {2,}/).slice(0, 5))).toEqual([
      ['1,000', '78 KiB', '/tmp/before', 'reload', '600 [500–700]'],
      ['1,000', '78 KiB', '/tmp/before', 'edit', '300 [250–350]'],
      ['1,000', '78 KiB', '/tmp/before', 'refresh', '150 [125–175]'],
      ['60,000', '4,688 KiB', '/tmp/before', 'reload', '9,000 [9,000–9,000]'],
      ['60,000', '4,688 KiB', '/tmp/before', 'edit', '4,500 [4,500–4,500]'],
      ['60,000', '4,688 KiB', '/tmp/before', 'refresh', '2,250 [2,250–2,250]'],
      ['60,000', '4,688 KiB', 'this', 'reload', '50 [50–50]'],
      ['60,000', '4,688 KiB', 'this', 'refresh', '13 [13–13]'],
    ]);
    expect(lines[8]).toMatch(/models\.json is 4,688 KiB, over the 1,024 KiB limit: not loaded$/);
  });
});
