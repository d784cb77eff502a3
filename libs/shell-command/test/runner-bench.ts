import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { runCommand as watchedRunner, type RunCommandOptions } from '../src/run-command';

// What the shell command runner costs per command over a bare spawn: `npx tsx test/runner-bench.ts [rounds]
// [--compare <another run-command.ts>]`. Systems are interleaved round by round; medians with min–max, in ms.

type Runner = (command: string) => Promise<unknown>;

const args = process.argv.slice(2);
const compareAt = args.indexOf('--compare');
const comparePath = compareAt === -1 ? undefined : args[compareAt + 1];
const rounds = Number(args.find((arg, index) => /^\d+$/.test(arg) && args[index - 1] !== '--compare') ?? 40);

function bare(command: string): Promise<unknown> {
  return new Promise((done) => {
    const child = spawn('/bin/bash', ['-c', command], { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.resume();
    child.stderr.resume();
    child.once('close', done);
  });
}

function viaRunner(run: (options: RunCommandOptions) => Promise<unknown>): Runner {
  return (command) =>
    run({ command, cwd: process.cwd(), timeoutMs: 60_000, killGraceMs: 1000, onOutput: () => undefined });
}

const systems: Array<[string, Runner]> = [
  ['bare spawn (no group ending)', bare],
  ['runner (watched group)', viaRunner(watchedRunner)],
];
if (comparePath !== undefined) {
  const other = (await import(resolve(comparePath))) as { runCommand: typeof watchedRunner };
  systems.push([`runner from ${comparePath}`, viaRunner(other.runCommand)]);
}
const commands = ['true', 'sleep 10 & true'];

const samples = new Map<string, number[]>();
for (let round = 0; round < rounds; round += 1) {
  for (const command of commands) {
    for (const [name, run] of systems) {
      if (name.startsWith('bare') && command !== 'true') continue;
      const started = process.hrtime.bigint();
      await run(command);
      const key = `${name} | ${command}`;
      samples.set(key, [...(samples.get(key) ?? []), Number(process.hrtime.bigint() - started) / 1e6]);
    }
  }
}

const rows = [...samples].map(([key, values]) => {
  const sorted = values.sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? NaN;
  const [system, command] = key.split(' | ');
  return { system, command, median: median.toFixed(1), range: `${sorted[0]?.toFixed(1)}–${sorted.at(-1)?.toFixed(1)}` };
});
console.log(`rounds: ${rounds}, load average: ${(await import('node:os')).loadavg()[0]?.toFixed(1)}`);
console.table(rows);
