import type { TerminalKind } from './terminal-process';

export const TUI_SCENARIOS = ['keypress', 'stream', 'append', 'cold'] as const;
export type TuiScenario = (typeof TUI_SCENARIOS)[number];

export interface TuiBenchOptions {
  /** Interleaved repetitions of every measurement (after one unrecorded warm-up round). */
  readonly rounds: number;
  readonly scenarios: readonly TuiScenario[];
  /** The cold start on pipes even when node-pty loads (`auto`: a pty when it does). */
  readonly terminal: TerminalKind | 'auto';
}

/** `--rounds=N`, `--only=keypress,stream,append,cold`, `--pipe`; anything else is an error, not ignored. */
export function parseTuiBenchOptions(args: readonly string[]): TuiBenchOptions {
  let rounds = 5;
  let scenarios: readonly TuiScenario[] = TUI_SCENARIOS;
  let terminal: TuiBenchOptions['terminal'] = 'auto';
  for (const arg of args) {
    const [flag, value] = arg.split('=', 2);
    if (flag === '--pipe' && value === undefined) terminal = 'pipe';
    else if (flag === '--rounds' && value !== undefined && Number.isInteger(Number(value)) && Number(value) > 0)
      rounds = Number(value);
    else if (flag === '--only' && value !== undefined) scenarios = value.split(',').map(scenario);
    else throw new Error(`Unknown option ${arg}; use --rounds=N, --only=${TUI_SCENARIOS.join(',')}, --pipe`);
  }
  return { rounds, scenarios, terminal };
}

function scenario(value: string): TuiScenario {
  const found = TUI_SCENARIOS.find((name) => name === value);
  if (found === undefined) throw new Error(`Unknown scenario ${value}; one of ${TUI_SCENARIOS.join(', ')}`);
  return found;
}
