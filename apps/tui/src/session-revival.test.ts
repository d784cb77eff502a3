import { err, ok, type Result } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { createRemoteState } from '@pi/remote';
import type { RpcClient } from '@pi/transport-trpc';
import { reviveWhenEnded } from './session-revival';

type ConnectionState = RpcClient['connection']['value'];

function connection(initial: ConnectionState) {
  const state = createRemoteState<ConnectionState>(initial);
  return {
    client: { connection: state } as Pick<RpcClient, 'connection'>,
    set: (next: ConnectionState) => state.set(next, BACKGROUND_CONTEXT),
  };
}

const CONNECTED: ConnectionState = { status: 'connected', epoch: 1 };
const DISCONNECTED: ConnectionState = {
  status: 'disconnected',
  reason: { code: 'disconnected', message: 'The connection closed (code 1006)' },
} as ConnectionState;
const CONNECTING: ConnectionState = { status: 'connecting', attempt: 2 } as ConnectionState;

/** Lets queued deliveries and promise callbacks run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('reviveWhenEnded', () => {
  it('asks for the session to be started again when a connected session drops', async () => {
    const { client, set } = connection(CONNECTED);
    let resumes = 0;
    reviveWhenEnded(client, async () => (resumes++, ok('s-1')));
    set(DISCONNECTED);
    await settle();
    expect(resumes).toBe(1);
  });

  it('asks once per drop: not again while one is in flight, again after a reconnect and a new drop', async () => {
    const { client, set } = connection(CONNECTED);
    let resumes = 0;
    let finish: (outcome: Result<string, string>) => void = () => undefined;
    reviveWhenEnded(client, () => {
      resumes++;
      return new Promise((resolve) => (finish = resolve));
    });
    set(DISCONNECTED);
    await settle();
    set(CONNECTING);
    set(DISCONNECTED);
    await settle();
    expect(resumes).toBe(1);
    finish(ok('s-1'));
    await settle();
    set(CONNECTED);
    set(DISCONNECTED);
    await settle();
    expect(resumes).toBe(2);
  });

  it('never asks for a session it was never connected to, nor after it is stopped', async () => {
    const never = connection(CONNECTING);
    let resumes = 0;
    reviveWhenEnded(never.client, async () => (resumes++, err('no coordinator')));
    never.set(DISCONNECTED);
    await settle();
    expect(resumes).toBe(0);

    const stopped = connection(CONNECTED);
    const stop = reviveWhenEnded(stopped.client, async () => (resumes++, ok('s-1')));
    stop();
    stopped.set(DISCONNECTED);
    await settle();
    expect(resumes).toBe(0);
  });
});
