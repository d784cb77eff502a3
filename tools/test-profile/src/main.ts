import { spawn } from 'node:child_process';
import { createWriteStream, existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { FILE_DURATIONS, formatFileDurations } from '@pi/workspace';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fileTimingsOf } from './file-timings';
import { parseProfileOptions } from './profile-options';
import { fileTable, phaseTable, projectTestTable } from './profile-table';
import { taskTimingsOf } from './task-timings';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

const parsed = parseProfileOptions(process.argv.slice(2), join(root, 'tmp', 'test-profile'));
if (parsed.isErr()) {
  console.error(parsed.error);
  process.exit(2);
}
const options = parsed.value;
await mkdir(options.out, { recursive: true });
const projects = options.projects.length === 0 ? [] : ['-p', ...options.projects];

// Two runs, because an option after `--` goes to every target of a run and only the test executor takes this one.
const checks = await phase('checks', ['run-many', '-t', 'lint', 'typecheck', ...projects]);
/** The test executor's one vitest instance writes what every file cost here. */
const report = join(options.out, 'test-timings.json');
await rm(report, { force: true });
const tests = await phase('tests', [
  'run-many',
  '-t',
  'test',
  ...projects,
  '--',
  `--timingsReport=${relative(root, report)}`,
]);
const files = fileTimingsOf(await readJson(report).catch(() => []));
// A whole run's durations become the order of the next runs (longest first), kept in the repository.
if (options.projects.length === 0 && tests.code === 0) {
  await writeFile(join(root, FILE_DURATIONS), formatFileDurations(new Map(files.map((file) => [file.file, file.ms]))));
  console.log(`The file durations that order the next runs are in ${FILE_DURATIONS}.`);
}

console.log(
  `\nWall time: lint + typecheck ${minutes(checks.ms)}, test ${minutes(tests.ms)}, ${minutes(checks.ms + tests.ms)} in all`,
);
console.log(`(Nx cache off; ${process.env['NX_PARALLEL'] ?? 'nx.json'} parallel; logs in ${options.out})\n`);
const tasks = [];
for (const { profile, log } of [checks, tests]) {
  const trace = await readJson(profile).catch(() => undefined);
  if (trace === undefined) {
    console.error(`Nx wrote no profile (${profile}): see ${log}`);
    process.exit(1);
  }
  tasks.push(...taskTimingsOf(trace));
}
console.log(phaseTable(tasks));
console.log('');
console.log(projectTestTable(files, projectOf));
console.log('');
console.log(fileTable(files, options.top));
const failedTasks = tasks.filter((task) => task.status !== 'success' && task.status !== 'unknown');
if (checks.code !== 0 || tests.code !== 0) {
  console.log(
    `\nSome tasks failed (${failedTasks.map((t) => `${t.project}:${t.target}`).join(', ') || 'see the logs'}).`,
  );
  process.exit(1);
}

async function phase(
  name: string,
  args: string[],
): Promise<{ ms: number; code: number; profile: string; log: string }> {
  const profile = join(options.out, `nx-${name}.json`);
  const log = join(options.out, `${name}.log`);
  process.stdout.write(`Running ${name} (log: ${log}) ... `);
  const started = performance.now();
  const code = await new Promise<number>((done) => {
    const child = spawn(
      process.execPath,
      [join(root, 'node_modules', 'nx', 'dist', 'bin', 'nx.js'), ...withNxFlags(args)],
      {
        cwd: root,
        // Nx writes the profile relative to the workspace root.
        env: { ...process.env, NX_PROFILE: relative(root, profile), NX_DAEMON: 'false' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const output = createWriteStream(log);
    child.stdout.pipe(output);
    child.stderr.pipe(output);
    child.on('close', (exit) => done(exit ?? 1));
  });
  const ms = performance.now() - started;
  console.log(`${minutes(ms)}${code === 0 ? '' : ` (exit ${code})`}`);
  return { ms, code, profile, log };
}

/** The project of a file (relative to the workspace): the nearest folder above it with a package.json. */
function projectOf(file: string): string {
  for (let dir = dirname(file); dir !== '.' && dir !== '/'; dir = dirname(dir)) {
    if (existsSync(join(root, dir, 'package.json'))) return dir;
  }
  return '(workspace)';
}

async function readJson(file: string): Promise<unknown> {
  return JSON.parse(await readFile(file, 'utf8'));
}

function minutes(ms: number): string {
  const total = Math.round(ms / 1000);
  return `${Math.floor(total / 60)}m${String(total % 60).padStart(2, '0')}s`;
}

/** Nx's own flags go before any `--`, whose rest Nx hands to the targets. */
function withNxFlags(args: readonly string[]): string[] {
  const split = args.indexOf('--');
  const nx = ['--skip-nx-cache', '--outputStyle=static'];
  return split === -1 ? [...args, ...nx] : [...args.slice(0, split), ...nx, ...args.slice(split)];
}
