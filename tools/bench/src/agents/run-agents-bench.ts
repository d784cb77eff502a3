import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { runAgent, type AgentFigures, type Progress } from './agent-run';
import type { AgentsOptions } from './agents-options';
import type { AgentsResults } from './agents-report';
import { BUNDLE_APPS } from './agents';
import { startAnswerServer } from './answer-server';

/**
 * Builds pi's bundles if they are stale (as `npm start` does, but before the clock starts), then runs each agent
 * in turn against one answer server, never both at once: they would compete for the same two cores.
 */
export async function runAgentsBench(options: AgentsOptions, progress: Progress): Promise<AgentsResults> {
  const started = performance.now();
  const loadStart = loadavg()[0] ?? 0;
  if (options.agents.includes('pi')) buildPiBundles();
  const server = await startAnswerServer(options.shape);
  const measured: Partial<Record<'pi' | 'upstream', AgentFigures>> = {};
  try {
    for (const name of options.agents) measured[name] = await runAgent(name, server, options, progress);
  } finally {
    await server.close();
  }
  return {
    durationSec: (performance.now() - started) / 1000,
    restMs: options.restMs,
    streamWords: options.shape.streamPieces * options.shape.wordsPerPiece,
    loadAverage: { start: loadStart, end: loadavg()[0] ?? 0 },
    ...measured,
  };
}

/** What `npm start` does first: rebuilds dist/apps when a source changed (a no-op otherwise). */
export function buildPiBundles(): void {
  execFileSync(process.execPath, [BUNDLE_APPS], { stdio: 'ignore' });
}
