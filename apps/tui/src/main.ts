import { join, resolve } from 'node:path';
import { piDirectories } from '@pi/connection-files/directories';
import { USAGE, parseCliOptions } from './cli-options';
import { startCoordinatorEarly } from './coordinator-start';
import { readKeymap } from './keymap-file';
import { openStartupTerminal } from './startup-terminal';

/**
 * The pi-tui process: parse flags, paint the startup screen, attach (starting a session first with --start), run
 * until the user quits. This module and what it imports statically are all that loads before the first frame (the
 * bundler keeps them apart, a tenth of the program); the TUI host, the transport and the facets load after it, while
 * a coordinator that --start needs and that does not run yet is already starting.
 */
async function main(): Promise<number> {
  const options = parseCliOptions(process.argv.slice(2), process.env['INIT_CWD'] ?? process.cwd());
  if (options.isErr()) {
    process.stderr.write(`pi-tui: ${options.error}\n`);
    return 2;
  }
  if (options.value.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const directories = piDirectories(process.env, options.value);
  const keymap = await readKeymap(join(directories.configDir, 'keybindings.json'));
  if (keymap.isErr()) {
    process.stderr.write(`pi-tui: ${keymap.error}\n`);
    return 1;
  }
  const cwd = resolve(options.value.cwd);
  // The screen is pi's from the first moment: it says what pi waits for, and takes the first prompts meanwhile.
  const terminal = openStartupTerminal({ input: process.stdin, output: process.stdout }, keymap.value, cwd);
  const { manifest } = options.value;
  const early = options.value.start
    ? startCoordinatorEarly(directories, manifest, process.env, import.meta.url)
    : undefined;
  const [{ installTraceExport }, { runTui }] = await Promise.all([import('@pi/trace-export'), import('./run-tui')]);
  // Before the first span; OTEL_EXPORTER_OTLP_ENDPOINT unset installs nothing.
  const traceExport = await installTraceExport({ env: process.env, defaultServiceName: 'pi-tui' });
  const outcome = await runTui({ ...options.value, cwd }, directories, process.env, terminal, import.meta.url, early);
  // The last spans leave before the exit.
  await traceExport?.shutdown();
  if (outcome.isErr()) {
    process.stderr.write(`pi-tui: ${outcome.error}\n`);
    return 1;
  }
  return 0;
}

// Everything was stopped in main; exit now rather than wait on a handle some plugin forgot.
process.exit(await main());
