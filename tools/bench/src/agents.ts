import { mkdir, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parseAgentsOptions } from './agents/agents-options';
import { agentsRows, formatAgentsReport } from './agents/agents-report';
import { runAgentsBench } from './agents/run-agents-bench';

/**
 * `npm run bench:agents`: this project and the pinned upstream agent side by side, in a pty each, talking to one
 * local OpenAI-compatible server. Progress goes to stderr; the table to stdout; the figures to out/agents.json.
 */
const options = parseAgentsOptions(process.argv.slice(2));
const results = await runAgentsBench(options, (line) => process.stderr.write(`${line}\n`));
const out = fileURLToPath(new URL('../out/', import.meta.url));
await mkdir(out, { recursive: true });
await writeFile(
  `${out}agents.json`,
  `${JSON.stringify({ ...results, options, rows: agentsRows(results) }, null, 2)}\n`,
);
process.stdout.write(`${formatAgentsReport(results).join('\n')}\n\nwritten: tools/bench/out/agents.json\n`);
// Every agent process was stopped and the server closed; exit rather than wait on a pty handle.
process.exit(0);
