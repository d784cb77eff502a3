import { resolve } from 'node:path';
import type { CliOptions } from './cli-options';
import type { RunningSession } from './start-session';

/**
 * What pi-session prints when it starts and stops: where it listens and its connection file (tools read this first
 * line), the commands to attach, and on the way out the command that reopens the session. Flags that changed where
 * the session lives are repeated, so each command works as printed.
 */
export function startedLines(session: RunningSession, options: CliOptions, processCwd: string): string[] {
  const urls = [session.url, session.tlsUrl].filter((url, index, all) => url != null && all.indexOf(url) === index);
  const also = urls.map((url) => ` and ${url}`).join('');
  const located = locationFlags(options, processCwd, ['--data-dir']);
  return [
    `pi-session ${session.sessionId}: listening on ${session.socketPath}${also} (connection file: ${session.connectionFile})`,
    `pi-session ${session.sessionId}: attach with \`${command('pi-tui', ['--session', session.sessionId, ...located])}\`` +
      ` (or \`${command('pi-tui', located)}\` in ${resolve(options.cwd)}); \`${command('pi', ['status', '--session', session.sessionId, ...located])}\``,
  ];
}

export function stoppedLine(sessionId: string, signal: string, options: CliOptions, processCwd: string): string {
  const flags = locationFlags(options, processCwd, ['--cwd', '--data-dir', '--config-dir', '--manifest']);
  return `pi-session ${sessionId}: stopped on ${signal}; reopen with \`${command('pi-session', ['--session', sessionId, ...flags])}\``;
}

type LocationFlag = '--cwd' | '--data-dir' | '--config-dir' | '--manifest';

/** The given flags among `wanted`; `--cwd` only when it is not where the command is run from. */
function locationFlags(options: CliOptions, processCwd: string, wanted: readonly LocationFlag[]): string[] {
  const values: Record<LocationFlag, string | undefined> = {
    '--cwd': resolve(options.cwd) === resolve(processCwd) ? undefined : resolve(options.cwd),
    '--data-dir': options.dataDir === undefined ? undefined : resolve(options.dataDir),
    '--config-dir': options.configDir === undefined ? undefined : resolve(options.configDir),
    '--manifest': options.manifest === undefined ? undefined : resolve(options.manifest),
  };
  return wanted.flatMap((flag) => (values[flag] === undefined ? [] : [flag, values[flag]]));
}

/** A command line a shell runs as printed: words with anything but safe characters are single-quoted. */
function command(program: string, args: readonly string[]): string {
  return [program, ...args]
    .map((word) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`))
    .join(' ');
}
