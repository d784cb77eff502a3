import type { PiClient } from '@pi/client';
import { RemoteError, toRemoteError, type WatchFrame } from '@pi/remote';
import { EXIT } from '../exit-codes';
import { reportError, type Output } from '../output';

/**
 * `pi watch <service>`: the snapshot, then each change and event, one JSON line each (without the trace carrier),
 * until interrupted (exit 0) or the watch ends for good (its error's exit code). Drops are reported on stderr; the
 * client reconnects and a fresh snapshot follows.
 */
export async function watchCommand(
  client: PiClient,
  service: string,
  json: boolean,
  io: Output,
  interrupted: AbortSignal,
): Promise<number> {
  let finish: (code: number) => void = () => undefined;
  const finished = new Promise<number>((resolve) => (finish = resolve));
  const fail = (error: RemoteError) => finish(reportError(io, error, json));
  let stop: () => void;
  try {
    stop = await client.watch(service, {
      next: (frame) => io.out(JSON.stringify(withoutTrace(frame))),
      error: (envelope) => fail(RemoteError.fromEnvelope(envelope)),
    });
  } catch (error) {
    return reportError(io, toRemoteError(error), json);
  }
  let wasConnected = true;
  const unwatchConnection = client.connection.subscribe((state) => {
    if (state.status === 'connected') wasConnected = true;
    if (state.status !== 'disconnected') return;
    if (!state.retrying) return fail(RemoteError.fromEnvelope(state.reason));
    if (wasConnected) io.err(`pi: ${state.reason.code}: ${state.reason.message}; reconnecting`);
    wasConnected = false;
  });
  const onInterrupt = () => finish(EXIT.ok);
  if (interrupted.aborted) onInterrupt();
  interrupted.addEventListener('abort', onInterrupt, { once: true });
  const code = await finished;
  interrupted.removeEventListener('abort', onInterrupt);
  unwatchConnection();
  stop();
  return code;
}

function withoutTrace(frame: WatchFrame): Omit<WatchFrame, 'trace'> {
  if (frame.kind === 'snapshot') return frame;
  const { trace: _trace, ...rest } = frame;
  return rest;
}
