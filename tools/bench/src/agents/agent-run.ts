import { performance } from 'node:perf_hooks';
import { median, spread, type Spread } from '../stats';
import { spawnAgentTerminal, type AgentTerminal } from './agent-terminal';
import type { AgentsOptions } from './agents-options';
import { setUpAgent, type AgentName, type AgentSetup } from './agents';
import { askPrompt, endMarker, streamPrompt, type AnswerServer } from './answer-server';
import { emptyNodesBytes, markedSample, memoryAtRest, memorySample } from './memory-at-rest';
import {
  cpuPercent,
  cpuPercentByProcess,
  processesMarked,
  readSharedOnceBytes,
  sampleMarked,
  type GroupSample,
} from './process-stats';
import { stopProcesses } from './stop-processes';

/** What one agent measured, in one run. */
export interface AgentFigures {
  readonly agent: AgentName;
  readonly label: string;
  /** Spawn → the first screen showing the editor (the prompt box). */
  readonly coldStartMs: number;
  /** Spawn → the agent says it is ready (pi: `● connected`; upstream: its footer names the model). */
  readonly readyMs: number;
  /** A capital typed → the chunk of output after which the screen shows it, editor otherwise idle. */
  readonly keypressIdleMs: Spread;
  /** The same, while a ~2,000-token answer streams. */
  readonly keypressStreamingMs: Spread;
  /** CPU of all the agent's processes, % of one core, first piece of a long answer → its last token painted. */
  readonly streamCpuPercent: Spread;
  /** First piece written → last token painted, for those answers. */
  readonly streamMs: Spread;
  /** Enter → the last token of a short answer painted. */
  readonly roundTripMs: Spread;
  readonly turns: number;
  /** RSS of all the agent's processes at rest (`restMs` after the answer) after the first turn and after the last. */
  readonly rssFirstTurnBytes: number;
  readonly rssLastTurnBytes: number;
  /** RSS of all the agent's processes a moment after the last turn's answer (0.3–1.1 s), before the rest. */
  readonly rssLastTurnJustAfterBytes: number;
  /** When the summed RSS last moved by 2 MiB or more during the rest after the first turn and after the last. */
  readonly settledFirstTurnMs: number;
  readonly settledLastTurnMs: number;
  /** The same processes' memory at rest with the pages they share (the node binary's) counted once, not once each. */
  readonly sharedOnceLastTurnBytes: number;
  /** The summed RSS of as many empty node processes as the agent ran: what its summed RSS cannot go below. */
  readonly floorBytes: number;
  /** Each process at the end, by script name: its RSS then and after the first turn, and its CPU while streaming. */
  readonly processes: readonly ProcessFigures[];
}

export interface ProcessFigures {
  readonly name: string;
  readonly rssBytes: number;
  /** NaN for a process that was not running after the first turn. */
  readonly rssFirstTurnBytes: number;
  /** Median over the long answers in which nothing was typed, % of one core (NaN when it was not seen in one). */
  readonly streamCpuPercent: number;
}

/** Typed keys are capitals and answers are lowercase, so an echo is never confused with streamed text. */
const KEYS = 'KQZWXJ';
/** Keys typed before the editor is emptied again (well within one editor row). */
const KEYS_PER_LINE = 16;
const COLUMNS = 100;
const ROWS = 30;

const isRule = (line: string) => /^─+$/.test(line.trim()) && line.trim().length >= COLUMNS / 2;

/**
 * The editor's text: both agents draw their prompt box between the last two horizontal rules across the screen;
 * undefined when there are no such rules (no editor painted yet).
 */
export function editorText(screen: string): string | undefined {
  const lines = screen.split('\n');
  const rules = lines.flatMap((line, index) => (isRule(line) ? [index] : []));
  if (rules.length < 2) return undefined;
  const [top, bottom] = rules.slice(-2) as [number, number];
  return lines
    .slice(top + 1, bottom)
    .map((line) => line.trim())
    .join('\n')
    .trim();
}

export const showsEditor = (screen: string): boolean => editorText(screen) !== undefined;

/** The editor ends with what was typed (the keys are typed at the end of its text). */
export const editorShows = (screen: string, typed: string): boolean => editorText(screen)?.endsWith(typed) ?? false;

export type Progress = (line: string) => void;

/** Starts the agent in a sandbox and a pty, measures it, and stops every process it started, also on failure. */
export async function runAgent(
  name: AgentName,
  server: AnswerServer,
  options: AgentsOptions,
  progress: Progress,
): Promise<AgentFigures> {
  const setup = setUpAgent(name, server.baseUrl);
  let terminal: AgentTerminal | undefined;
  let stopped: Promise<void> | undefined;
  // Registered before the sandbox exists, so that a Ctrl+C at any point removes it and whatever started in it.
  const stop = () => (stopped ??= setup.then((agent) => stopAgent(agent, terminal, progress)));
  running.add(stop);
  let figures: Omit<AgentFigures, 'floorBytes'>;
  try {
    const agent = await setup;
    if (stopped !== undefined) throw new Error(`Stopped before ${name} started`);
    const start = performance.now();
    terminal = spawnAgentTerminal({ ...agent, cols: COLUMNS, rows: ROWS });
    figures = await measure(agent, terminal, start, server, options, progress);
  } finally {
    await stop();
    running.delete(stop);
  }
  // Once the agent is gone, so that nothing competes with the empty nodes' start.
  return { ...figures, floorBytes: await emptyNodesBytes(figures.processes.length) };
}

const running = new Set<() => Promise<void>>();

/** Stops every agent being measured (on Ctrl+C: pi's coordinator and session outlive a closed pty otherwise). */
export async function stopRunningAgents(): Promise<void> {
  await Promise.all([...running].map((stop) => stop()));
}

async function measure(
  agent: AgentSetup,
  terminal: AgentTerminal,
  start: number,
  server: AnswerServer,
  options: AgentsOptions,
  progress: Progress,
): Promise<Omit<AgentFigures, 'floorBytes'>> {
  const wait = options.timeoutMs;
  const coldStartMs = (await terminal.whenScreen(showsEditor, 'the editor', wait)) - start;
  const readyMs = (await terminal.whenScreen(agent.ready, 'that it is ready', wait)) - start;
  progress(`${agent.name}: editor after ${coldStartMs.toFixed(0)} ms, ready after ${readyMs.toFixed(0)} ms`);
  if (agent.selectModel !== undefined) {
    const { keys, shown } = agent.selectModel;
    terminal.write(keys);
    await terminal.whenScreen((screen) => screen.includes(shown), `the model ${shown}`, wait);
  }
  await terminal.settle(options.quietMs, wait);

  const idle: number[] = [];
  await typeKeys(terminal, options, idle, () => idle.length >= options.keys);
  progress(`${agent.name}: ${idle.length} keys typed on an idle screen`);

  const roundTrips: number[] = [];
  let turn = 0;
  const ask = async () => {
    turn += 1;
    roundTrips.push(await roundTrip(terminal, turn, options));
  };
  await ask();
  const sample = markedSample(agent.marker);
  const first = await memoryAtRest(sample, options.restMs);
  progress(`${agent.name}: at rest after turn 1: RSS last moved ${(first.settledMs / 1000).toFixed(0)} s in`);

  const streaming: number[] = [];
  const cpu: number[] = [];
  const cpuByProcess = new Map<string, number[]>();
  const streamMs: number[] = [];
  for (let round = 0; round < options.streams; round++) {
    turn += 1;
    const quiet = await streamTurn(terminal, server, agent.marker, turn, options);
    cpu.push(quiet.cpuPercent);
    for (const { name, percent } of quiet.byProcess)
      cpuByProcess.set(name, [...(cpuByProcess.get(name) ?? []), percent]);
    streamMs.push(quiet.ms);
    turn += 1;
    await streamTurn(terminal, server, agent.marker, turn, options, streaming);
    progress(`${agent.name}: stream ${round + 1}: ${quiet.cpuPercent.toFixed(0)} % CPU over ${quiet.ms.toFixed(0)} ms`);
  }
  while (turn < options.turns) {
    await ask();
    if (turn % 10 === 0) progress(`${agent.name}: turn ${turn} of ${options.turns}`);
  }
  await terminal.settle(options.quietMs * 2, wait);
  const justAfter = await memorySample(sample);
  const rest = await memoryAtRest(sample, options.restMs);
  progress(`${agent.name}: at rest after turn ${turn}: RSS last moved ${(rest.settledMs / 1000).toFixed(0)} s in`);
  const last = rest.sample;
  const sharedOnceLastTurnBytes = await readSharedOnceBytes(last.processes.map((process) => process.pid));
  return {
    agent: agent.name,
    label: agent.label,
    coldStartMs,
    readyMs,
    keypressIdleMs: spread(idle),
    keypressStreamingMs: spread(streaming),
    streamCpuPercent: spread(cpu),
    streamMs: spread(streamMs),
    roundTripMs: spread(roundTrips),
    turns: turn,
    rssFirstTurnBytes: first.sample.rssBytes,
    rssLastTurnBytes: last.rssBytes,
    rssLastTurnJustAfterBytes: justAfter.rssBytes,
    settledFirstTurnMs: first.settledMs,
    settledLastTurnMs: rest.settledMs,
    sharedOnceLastTurnBytes,
    processes: last.processes.map(({ pid, name, rssBytes }) => ({
      name,
      rssBytes,
      rssFirstTurnBytes: first.sample.processes.find((process) => process.pid === pid)?.rssBytes ?? Number.NaN,
      streamCpuPercent: median(cpuByProcess.get(name) ?? [Number.NaN]),
    })),
  };
}

/**
 * Types capitals one at a time, each once the previous one showed, recording each key's latency, until `done`;
 * empties the editor with Backspace every KEYS_PER_LINE keys and at the end.
 */
async function typeKeys(
  terminal: AgentTerminal,
  options: AgentsOptions,
  latencies: number[],
  done: () => boolean,
): Promise<void> {
  let typed = '';
  const clear = async () => {
    if (typed === '') return;
    terminal.write('\x7f'.repeat(typed.length));
    typed = '';
    await terminal.whenScreen((screen) => editorText(screen) === '', 'the editor emptied', options.timeoutMs);
  };
  while (!done()) {
    if (typed.length === KEYS_PER_LINE) await clear();
    const expected = typed + (KEYS[typed.length % KEYS.length] ?? 'K');
    const sent = performance.now();
    terminal.write(expected.slice(-1));
    const shown = await terminal.whenScreen(
      (screen) => editorShows(screen, expected),
      `the typed ${expected}`,
      options.timeoutMs,
    );
    typed = expected;
    latencies.push(shown - sent);
    // A person types a few keys a second: let the frame that showed the key finish before the next.
    await new Promise((resolve) => setTimeout(resolve, options.keyGapMs));
  }
  await clear();
}

/** Enter on `ask <turn>` → its answer's last token painted; then waits for the screen to go quiet. */
async function roundTrip(terminal: AgentTerminal, turn: number, options: AgentsOptions): Promise<number> {
  terminal.write(askPrompt(turn));
  await terminal.whenScreen((screen) => editorShows(screen, askPrompt(turn)), 'the prompt typed', options.timeoutMs);
  const sent = performance.now();
  terminal.write('\r');
  const painted = await terminal.whenScreen(
    (screen) => screen.includes(endMarker(turn)),
    `the end of answer ${turn}`,
    options.timeoutMs,
  );
  await terminal.settle(options.quietMs, options.timeoutMs);
  return painted - sent;
}

/**
 * One long answer: its CPU (all the agent's processes) and time from the first piece written to its last token
 * painted; with `latencies`, keys are typed while it streams and their latencies recorded instead.
 */
async function streamTurn(
  terminal: AgentTerminal,
  server: AnswerServer,
  marker: string,
  turn: number,
  options: AgentsOptions,
  latencies?: number[],
): Promise<{ cpuPercent: number; byProcess: ReturnType<typeof cpuPercentByProcess>; ms: number }> {
  terminal.write(streamPrompt(turn));
  await terminal.whenScreen((screen) => editorShows(screen, streamPrompt(turn)), 'the prompt typed', options.timeoutMs);
  const started = server.nextStreamStart();
  terminal.write('\r');
  const firstPiece = await started;
  const before: GroupSample = await sampleMarked(marker);
  const sampled = performance.now();
  let ended = false;
  const end = terminal
    .whenScreen((screen) => screen.includes(endMarker(turn)), `the end of answer ${turn}`, options.timeoutMs * 2)
    .finally(() => (ended = true));
  if (latencies !== undefined) await typeKeys(terminal, options, latencies, () => ended);
  const painted = await end;
  const after = await sampleMarked(marker);
  await terminal.settle(options.quietMs, options.timeoutMs);
  const byProcess = cpuPercentByProcess(before, after, painted - sampled);
  return { cpuPercent: cpuPercent(before, after, painted - sampled), byProcess, ms: painted - firstPiece };
}

/**
 * Stops the agent as a closing terminal would (SIGTERM, SIGKILL if it hangs), asks it to stop what it left running
 * (pi's coordinator, which stops its sessions), then kills whatever still carries the agent's marker.
 */
async function stopAgent(agent: AgentSetup, terminal: AgentTerminal | undefined, progress: Progress): Promise<void> {
  if (terminal !== undefined) {
    terminal.kill('SIGTERM');
    const timer = setTimeout(() => terminal.kill('SIGKILL'), 5000);
    await terminal.exited;
    clearTimeout(timer);
  }
  await agent.stopOwn();
  const left = await processesMarked(agent.marker);
  if (left.length > 0) progress(`${agent.name}: killing ${left.length} process(es) left running: ${left.join(', ')}`);
  await stopProcesses(left);
  await agent.remove();
}
