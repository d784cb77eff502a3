import { existsSync } from 'node:fs';
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BACKGROUND_CONTEXT, withAbortSignal } from '@pi/plugin-api';
import { groupAlive } from '@pi/shell-command';
import { eventually } from '@pi/test-support';
import { run, tempWorkspace } from '../test/temp-workspace';
import { bashTool } from './bash-tool';
import { TOOL_LIMITS } from './tool-limits';

/** The process group of a command that printed `$$` (the shell's pid, which leads its group) first. */
function groupOf(text: string): number {
  const pgid = Number(text.split('\n')[0]);
  expect(Number.isInteger(pgid) && pgid > 1).toBe(true);
  return pgid;
}

/** True once no process of the group exists at all: `kill(-pgid, 0)` fails with ESRCH. */
function groupGone(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** No living process is left in the group when the tool returns, and the group disappears once init reaps. */
async function expectNoLeftover(pgid: number): Promise<void> {
  expect(await groupAlive(pgid)).toBe(false);
  await eventually(() => groupGone(pgid));
}

describe('the bash tool', () => {
  it('runs a command in the working directory and returns its output', async () => {
    const workspace = await tempWorkspace();
    const result = await run(bashTool(workspace.cwd), { command: 'pwd; echo hi' });
    expect(result.isError).toBeUndefined();
    expect(result.text).toBe(`${workspace.cwd}\nhi`);
    expect(result.details).toEqual({
      command: 'pwd; echo hi',
      exitCode: 0,
      signal: null,
      timedOut: false,
      aborted: false,
      truncated: false,
      notice: null,
    });
  });

  it('reports a failing exit code as an error result, with stderr in the output', async () => {
    const workspace = await tempWorkspace();
    const result = await run(bashTool(workspace.cwd), { command: 'echo broken >&2; exit 3' });
    expect(result.isError).toBe(true);
    expect(result.text).toBe('broken\n\n[Exit code 3.]');
    expect(result.details).toMatchObject({ exitCode: 3, notice: '[Exit code 3.]' });
  });

  it('says when there was no output, and closes stdin so nothing waits for input', async () => {
    const workspace = await tempWorkspace();
    expect((await run(bashTool(workspace.cwd), { command: 'cat' })).text).toBe('(no output)');
  });

  it('kills the whole process group on timeout, leaving no process behind', async () => {
    const workspace = await tempWorkspace();
    const result = await run(bashTool(workspace.cwd), {
      command: 'echo $$; sleep 30 & sleep 30; echo never',
      timeout: 0.3,
    });
    expect(result.isError).toBe(true);
    expect(result.details).toMatchObject({ timedOut: true, aborted: false, exitCode: null });
    expect(result.text).toMatch(/\n\n\[Timed out after 0\.3 s; the command and everything it started were killed\.\]$/);
    expect(result.text).not.toContain('never');
    await expectNoLeftover(groupOf(result.text));
  });

  it('kills the whole process group on abort, leaving no process behind', async () => {
    const workspace = await tempWorkspace();
    const controller = new AbortController();
    const running = run(
      bashTool(workspace.cwd),
      { command: 'echo $$; sleep 30 & (sleep 30 & : > started; wait); wait' },
      withAbortSignal(controller.signal, BACKGROUND_CONTEXT),
    );
    // Aborted once everything has started (a loaded machine may take longer than any fixed delay to get there).
    await eventually(() => existsSync(join(workspace.cwd, 'started')));
    controller.abort();
    const result = await running;
    expect(result.isError).toBe(true);
    expect(result.details).toMatchObject({ aborted: true, timedOut: false });
    expect(result.text).toMatch(/\[Aborted; the command and everything it started were killed\.\]$/);
    await expectNoLeftover(groupOf(result.text));
  });

  it('uses SIGKILL on processes that ignore SIGTERM', async () => {
    const workspace = await tempWorkspace();
    const result = await run(bashTool(workspace.cwd, { killGraceMs: 100 }), {
      command: "trap '' TERM; echo $$; sleep 30",
      timeout: 0.2,
    });
    expect(result.details).toMatchObject({ timedOut: true });
    await expectNoLeftover(groupOf(result.text));
  });

  it('ends what the command left running in the background when it exits', async () => {
    const workspace = await tempWorkspace();
    const result = await run(bashTool(workspace.cwd), { command: 'echo $$; sleep 30 &' });
    expect(result.details).toMatchObject({ exitCode: 0, timedOut: false });
    await expectNoLeftover(groupOf(result.text));
  });

  it('does not start a command whose call was aborted already', async () => {
    const workspace = await tempWorkspace();
    const controller = new AbortController();
    controller.abort();
    const result = await run(
      bashTool(workspace.cwd),
      { command: 'touch ran.txt' },
      withAbortSignal(controller.signal, BACKGROUND_CONTEXT),
    );
    expect(result.details).toMatchObject({ aborted: true });
    await expect(access(join(workspace.cwd, 'ran.txt'))).rejects.toThrow();
  });

  it('keeps the tail of a long output and marks the cut', async () => {
    const workspace = await tempWorkspace();
    const result = await run(bashTool(workspace.cwd), { command: 'seq 1 100000' });
    const lines = result.text.split('\n');
    expect(result.details).toMatchObject({ truncated: true, exitCode: 0 });
    expect(lines.at(-1)).toBe('[Output cut: showing the last 2000 lines of 575.1 KiB.]');
    expect(lines.at(-3)).toBe('100000');
    expect(lines.length - 2).toBeLessThanOrEqual(TOOL_LIMITS.bashMaxOutputLines);
    expect(result.text.length).toBeLessThanOrEqual(TOOL_LIMITS.bashMaxOutputBytes + 100);
  });

  it('removes terminal escape sequences and keeps the last state of a redrawn line', async () => {
    const workspace = await tempWorkspace();
    const result = await run(bashTool(workspace.cwd), {
      command: "printf '\\033[31mred\\033[0m\\n10%%\\r55%%\\r100%%\\n'",
    });
    expect(result.text).toBe('red\n100%');
  });

  it('runs one at a time and refuses a timeout beyond an hour', () => {
    const tool = bashTool('/');
    expect(tool.executionMode).toBe('sequential');
    expect(tool.parameters.safeParse({ command: 'ls', timeout: 3601 }).success).toBe(false);
  });
});
