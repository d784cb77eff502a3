import { mkdir, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { stopRunningAgents } from './agents/agent-run';
import { parseAgentsOptions } from './agents/agents-options';
import { agentsRows, formatAgentsReport } from './agents/agents-report';
import { runAgentsBench } from './agents/run-agents-bench';

/**
 * `npm run bench:agents`: this project and the pinned upstream agent side by side, in a pty each, talking to one
 * local OpenAI-compatible server. Progress goes to stderr; the table to stdout; the figures to out/agents.json.
 */
const options = parseAgentsOptions(process.argv.slice(2));
// On Ctrl+C the agents are stopped first: pi's coordinator and session would outlive the closed pty.
let interrupted: Promise<void> | undefined;
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.once(signal, () => {
    process.stderr.write(`${signal}: stopping the agents\n`);
    interrupted ??= stopRunningAgents();
    void interrupted.finally(() => process.exit(130));
  });
}
const results = await runAgentsBench(options, (line) => process.stderr.write(`${line}\n`)).catch(
  async (error: unknown) => {
    // Stopping made the run fail (its pty closed): not an error to report.
    if (interrupted === undefined) throw error;
    await interrupted;
    return process.exit(130);
  },
);
const out = fileURLToPath(new URL('../out/', import.meta.url));
await mkdir(out, { recursive: true });
await writeFile(
  `${out}agents.json`,
  `${JSON.stringify({ ...results, options, rows: agentsRows(results) }, null, 2)}\n`,
);
process.stdout.write(`${formatAgentsReport(results).join('\n')}\n\nwritten: tools/bench/out/agents.json\n`);
// Every agent process was stopped and the server closed; exit rather than wait on a pty handle.
process.exit(0);
