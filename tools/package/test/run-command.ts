import { spawn } from 'node:child_process';

export interface CommandResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs `command` with stdin closed and resolves with its exit code and output; a command that cannot be started
 * (not found on the PATH of `env`) resolves with code null and the reason on stderr, as a shell would say it.
 */
export function runCommand(
  command: string,
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<CommandResult> {
  return new Promise((resolve) => {
    const child = spawn(command, [...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('error', (error) => resolve({ code: null, stdout, stderr: `${stderr}${error.message}` }));
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}
