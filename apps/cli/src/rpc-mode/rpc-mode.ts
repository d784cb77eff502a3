import { ConfirmInteraction } from '@pi/permissions';
import { toRemoteError } from '@pi/remote';
import { openPrintSession } from '../commands/print-session';
import { EXIT } from '../exit-codes';
import { reportError, type Output } from '../output';
import { readCommand } from './rpc-commands';
import { MAX_RPC_LINE_BYTES, rpcLines, type RpcLine } from './rpc-lines';
import { RpcSession } from './rpc-session';

/** `pi --mode rpc`: where its session is, and what it may do unasked. */
export interface RpcModeRun {
  readonly cwd: string;
  readonly dataDir: string | undefined;
  /** `--no-session`: a session of its own, removed when the input ends. */
  readonly noSession: boolean;
  /** `--allow-tools`: tools that ask for confirmation run; otherwise they are denied. */
  readonly allowTools: boolean;
}

/**
 * `pi --mode rpc`: commands in, one JSON object per LF-terminated line of `input`; responses and the session's events
 * out, one JSON object per line (docs/rpc-mode.md). A line that is no command is answered with an error line and
 * the next is read. The input's end waits for the commands under way and the runs its prompts started (an interrupt
 * does not), then lets go of the session (stopping it when this mode started it) and exits 0.
 */
export async function rpcModeCommand(
  run: RpcModeRun,
  input: AsyncIterable<Uint8Array | string>,
  env: NodeJS.ProcessEnv,
  io: Output,
  interrupted: AbortSignal,
): Promise<number> {
  const opened = await openPrintSession({ cwd: run.cwd, dataDir: run.dataDir, ephemeral: run.noSession }, env);
  if (opened.isErr()) return reportError(io, opened.error, false);
  const { client } = opened.value;
  const write = (record: Record<string, unknown>) => io.out(JSON.stringify(record));
  const session = new RpcSession(client, write, interrupted);
  const answer = async (line: RpcLine): Promise<void> => {
    if ('tooLong' in line) {
      const message = `The line is ${line.tooLong} bytes, over the ${MAX_RPC_LINE_BYTES} a command may be`;
      write({ type: 'response', id: null, command: null, success: false, error: { code: 'invalid_command', message } });
      return;
    }
    const command = readCommand(line.text);
    if (command.isOk()) await session.run(command.value);
    else write({ type: 'response', ...command.error, success: false });
  };
  let queue = Promise.resolve();
  try {
    if (run.allowTools) client.handle(ConfirmInteraction, async () => ({ decision: 'allow_once' }));
    await session.start();
    write({ type: 'ready', sessionId: client.session?.sessionId ?? null, cwd: client.session?.cwd ?? null });
    for await (const line of untilAborted(rpcLines(input), interrupted)) {
      // One at a time, in the order read (a refused line too): an abort after a prompt finds the run it started,
      // and the responses come in the order of the lines.
      queue = queue.then(() => answer(line));
    }
    await queue;
    // What was asked is seen to its end: the runs the prompts started settle before the session is let go.
    if (!interrupted.aborted) await Promise.race([session.runsSettled(), aborted(interrupted)]);
    return EXIT.ok;
  } catch (error) {
    return reportError(io, toRemoteError(error), false);
  } finally {
    session.close();
    await opened.value.close();
  }
}

function aborted(signal: AbortSignal): Promise<'aborted'> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve('aborted');
    signal.addEventListener('abort', () => resolve('aborted'), { once: true });
  });
}

/** The lines until the signal aborts: an interrupt ends the mode as the input's end does. */
async function* untilAborted<T>(lines: AsyncGenerator<T>, signal: AbortSignal): AsyncGenerator<T> {
  const interrupted = aborted(signal);
  for (;;) {
    const next = await Promise.race([lines.next(), interrupted]);
    if (next === 'aborted' || next.done === true) {
      void lines.return(undefined);
      return;
    }
    yield next.value;
  }
}
