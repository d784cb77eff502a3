import { spread } from '../stats';
import { formatSpread, formatTable } from '../text-table';
import type { CatalogRound, PhaseFigures } from './measure-catalog';

const PHASES = ['reload', 'edit', 'refresh'] as const;

/**
 * One row per catalogue size, session and phase, each figure the median over the rounds [min–max]: the phase's time,
 * the session's longest event-loop stall and longest step in CPU time, the bystander's slowest call and how many it
 * made, and what was shown.
 * `label` names a session's workspace (its root) in the table.
 */
export function formatCatalogReport(rounds: readonly CatalogRound[], label: (root: string) => string): string[] {
  const sizes = [...new Set(rounds.map((round) => round.models))].sort((a, b) => a - b);
  const roots = [...new Set(rounds.map((round) => round.root))];
  const groups = sizes.flatMap((models) =>
    roots
      .map((root) => rounds.filter((round) => round.models === models && round.root === root))
      .filter((same) => same.length > 0),
  );
  const rows = groups.flatMap((same) => {
    const first = same[0] as CatalogRound;
    // A phase some round did not run (an edit of a catalogue that was refused) has no row.
    return PHASES.filter((name) => same.every((round) => round[name] !== undefined)).map((name) => {
      const figure = (pick: (phase: PhaseFigures) => number, decimals = 0) =>
        formatSpread(spread(same.map((round) => pick(round[name] as PhaseFigures))), decimals);
      return [
        first.models.toLocaleString('en-US'),
        `${Math.round(first.fileBytes / 1024).toLocaleString('en-US')} KiB`,
        label(first.root),
        name,
        figure((phase) => phase.durationMs),
        figure((phase) => phase.loop.maxMs, 1),
        figure((phase) => phase.loop.maxStepCpuMs, 1),
        figure((phase) => phase.bystander.maxMs, 1),
        figure((phase) => phase.bystander.calls),
        name === 'reload' ? cut(first.outcome, 80) : '',
      ];
    });
  });
  const header = [
    'models',
    'file',
    'session',
    'phase',
    'time ms',
    'host loop max ms',
    'host step cpu ms',
    'bystander max ms',
    'calls',
    'shown',
  ];
  return formatTable(header, rows);
}

function cut(text: string, length: number): string {
  return text.length <= length ? text : `${text.slice(0, length - 1)}…`;
}
