import { AGENT_NAMES, type AgentName } from './agents';
import { DEFAULT_SHAPE, type AnswerShape } from './answer-server';

export interface AgentsOptions {
  /** Prompts in all, the long answers included; RSS is read after the first and after the last. */
  readonly turns: number;
  /** Keys typed on an idle screen. */
  readonly keys: number;
  /** Pairs of long answers: one measures CPU, the other keypresses while it streams. */
  readonly streams: number;
  readonly agents: readonly AgentName[];
  readonly shape: AnswerShape;
  /** The longest wait for any one thing on screen before the run fails. */
  readonly timeoutMs: number;
  /** No output for this long: the screen has settled. */
  readonly quietMs: number;
  /** Between a key showing and the next key. */
  readonly keyGapMs: number;
  /** How long the agent is left alone after the first turn and after the last before its memory is read. */
  readonly restMs: number;
}

export const DEFAULT_OPTIONS: AgentsOptions = {
  turns: 50,
  keys: 30,
  streams: 3,
  agents: AGENT_NAMES,
  shape: DEFAULT_SHAPE,
  timeoutMs: 60_000,
  quietMs: 150,
  keyGapMs: 30,
  restMs: 120_000,
};

/** A few of everything and a short long answer: for a test of the harness, not for figures. */
const QUICK: Partial<AgentsOptions> = {
  turns: 4,
  keys: 4,
  streams: 1,
  shape: { ...DEFAULT_SHAPE, streamPieces: 40 },
  restMs: 2000,
};

const USAGE = '--turns=N, --keys=N, --streams=N, --rest=SECONDS, --only=pi,upstream, --quick';

/**
 * `--turns=N` (default 50), `--keys=N`, `--streams=N`, `--rest=SECONDS` (default 120), `--only=pi,upstream`,
 * `--quick`; anything else is an error.
 */
export function parseAgentsOptions(args: readonly string[]): AgentsOptions {
  let options: AgentsOptions = DEFAULT_OPTIONS;
  const counts: Partial<Record<'turns' | 'keys' | 'streams' | 'restMs', number>> = {};
  for (const arg of args) {
    const [flag, value] = arg.split('=', 2);
    const count = Number(value);
    const name = flag?.slice(2);
    if (flag === '--quick' && value === undefined) options = { ...options, ...QUICK };
    else if ((name === 'turns' || name === 'keys' || name === 'streams') && Number.isInteger(count) && count > 0)
      counts[name] = count;
    else if (name === 'rest' && Number.isInteger(count) && count > 0) counts.restMs = count * 1000;
    else if (flag === '--only' && value !== undefined) options = { ...options, agents: value.split(',').map(agent) };
    else throw new Error(`Unknown option ${arg}; use ${USAGE}`);
  }
  options = { ...options, ...counts };
  // The first turn is a short answer (RSS is read after it), then the long answers in pairs.
  if (options.turns < 2 * options.streams + 1)
    throw new Error(
      `--turns=${options.turns} leaves no room for ${options.streams} pair(s) of long answers and a first turn`,
    );
  return options;
}

function agent(value: string): AgentName {
  const found = AGENT_NAMES.find((name) => name === value);
  if (found === undefined) throw new Error(`Unknown agent ${value}; one of ${AGENT_NAMES.join(', ')}`);
  return found;
}
