import { describe, expect, it } from 'vitest';
import { err, ok, type Result } from 'neverthrow';
import { runAttachLoop } from './attach-loop';

type SwitchSession = ((sessionId: string) => Promise<void>) | undefined;

/** Fakes of the loop's world: attachments are session ids, hosts record their start and stop in `log`. */
function world(options: { failStartOn?: string; attachable?: readonly string[] } = {}) {
  const log: string[] = [];
  const switchers: SwitchSession[] = [];
  let quit: () => void = () => undefined;
  const quitting = new Promise<void>((resolve) => (quit = resolve));
  let gate: Promise<void> | undefined;
  const attachable = new Set(options.attachable ?? ['b', 'c']);
  const loop = runAttachLoop<string>({
    first: 'a',
    quitting,
    detach: (attachment) => log.push(`detach ${attachment}`),
    async start(attachment, switchSession) {
      log.push(`start ${attachment}`);
      switchers.push(switchSession);
      if (attachment === options.failStartOn) return err(`facets failed on ${attachment}`);
      return ok({ stop: async () => void log.push(`stop ${attachment}`) });
    },
    async attachTo(sessionId): Promise<Result<string, string>> {
      log.push(`attach ${sessionId}`);
      await gate;
      return attachable.has(sessionId) ? ok(sessionId) : err(`No running session "${sessionId}"`);
    },
  });
  const started = async (count: number) => {
    while (switchers.length < count) await new Promise((resolve) => setTimeout(resolve, 1));
    return switchers[count - 1] as NonNullable<SwitchSession>;
  };
  return {
    log,
    loop,
    quit,
    started,
    hold: () => {
      let release: () => void = () => undefined;
      gate = new Promise<void>((resolve) => (release = resolve));
      return release;
    },
  };
}

describe('the attach loop', () => {
  it('runs one host until quit, then stops it and closes its client', async () => {
    const { log, loop, quit, started } = world();
    await started(1);
    quit();
    expect((await loop).isOk()).toBe(true);
    expect(log).toEqual(['start a', 'stop a', 'detach a']);
  });

  it('a switch connects first, then stops the current host and starts one on the new session', async () => {
    const { log, loop, quit, started } = world();
    await (
      await started(1)
    )('b');
    await started(2);
    quit();
    expect((await loop).isOk()).toBe(true);
    expect(log).toEqual(['start a', 'attach b', 'stop a', 'detach a', 'start b', 'stop b', 'detach b']);
  });

  it('switches again from the new session, with a switch of its own', async () => {
    const { log, loop, quit, started } = world();
    await (
      await started(1)
    )('b');
    await (
      await started(2)
    )('c');
    await started(3);
    quit();
    await loop;
    expect(log.filter((line) => line.startsWith('start'))).toEqual(['start a', 'start b', 'start c']);
  });

  it('a session it cannot attach to rejects the switch with the reason and keeps the current one', async () => {
    const { log, loop, quit, started } = world();
    const switchSession = await started(1);
    await expect(switchSession('z')).rejects.toThrow('No running session "z"');
    await switchSession('b'); // and a later switch still works
    await started(2);
    quit();
    await loop;
    expect(log).toEqual(['start a', 'attach z', 'attach b', 'stop a', 'detach a', 'start b', 'stop b', 'detach b']);
  });

  it('takes one switch at a time', async () => {
    const { loop, quit, started, hold } = world();
    const switchSession = await started(1);
    const release = hold();
    const first = switchSession('b');
    await expect(switchSession('c')).rejects.toThrow('Already switching to another session');
    release();
    await first;
    await started(2);
    quit();
    await loop;
  });

  it('quitting while a switch connects closes the new connection and rejects the switch', async () => {
    const { log, loop, quit, started, hold } = world();
    const switchSession = await started(1);
    const release = hold();
    const switching = switchSession('b');
    quit();
    await loop;
    release();
    await expect(switching).rejects.toThrow('The TUI is quitting');
    expect(log).toEqual(['start a', 'attach b', 'stop a', 'detach a', 'detach b']);
  });

  it('a host that cannot start on the new session ends the loop with its error, its client closed', async () => {
    const { log, loop, started } = world({ failStartOn: 'b' });
    await (
      await started(1)
    )('b');
    const outcome = await loop;
    expect(outcome.isErr() && outcome.error).toBe('facets failed on b');
    expect(log).toEqual(['start a', 'attach b', 'stop a', 'detach a', 'start b', 'detach b']);
  });

  it('without a way to attach by id, hosts get no switch (their facets are told it cannot switch)', async () => {
    let quit: () => void = () => undefined;
    const switches: SwitchSession[] = [];
    const loop = runAttachLoop<string>({
      first: 'a',
      quitting: new Promise<void>((resolve) => (quit = resolve)),
      attachTo: undefined,
      detach: () => undefined,
      start: async (_attachment, switchSession) => {
        switches.push(switchSession);
        return ok({ stop: async () => undefined });
      },
    });
    while (switches.length === 0) await new Promise((resolve) => setTimeout(resolve, 1));
    quit();
    await loop;
    expect(switches).toEqual([undefined]);
  });
});
