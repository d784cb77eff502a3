import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BACKGROUND_CONTEXT, type Context } from '@pi/context';
import { defineRemoteService } from '@pi/remote';
import { TRANSPORTS, remoteErrorOf, startRpcFixture, type RpcFixture } from '@pi/test-support';

/**
 * What the contract checks hand on. A value the contract leaves as it is is passed on without being parsed into a
 * copy (`schemaVerdict`); these hold that nothing a caller, a method or a reader sees differs from zod's output.
 */
const entry = z.object({ name: z.string(), size: z.number(), kind: z.string().default('file') });
type Entry = z.output<typeof entry>;

interface Entries {
  /** Keeps the entry as the method received it, and returns it. */
  keep(value: Entry, context: Context): Promise<Entry>;
  /** Returns an entry it still holds, and breaks it (a number for a name) after `turns` microtasks, or -1: an immediate. */
  breakAfter(turns: number, context: Context): Promise<Entry>;
}

const Entries = defineRemoteService<Entries>('entries', {
  methods: {
    keep: { args: [entry], result: entry },
    breakAfter: { args: [z.number().int()], result: entry },
  },
  state: {},
  events: {},
});

function entries(): Entries & { readonly kept: Entry[] } {
  const kept: Entry[] = [];
  return {
    kept,
    keep: async (value) => {
      kept.push(value);
      return value;
    },
    breakAfter: (turns) => {
      const held: Entry = { name: 'held', size: turns, kind: 'file' };
      const breakIt = () => Object.assign(held, { name: 42 });
      if (turns < 0) setImmediate(breakIt);
      else {
        let chain = Promise.resolve();
        for (let turn = 0; turn < turns; turn++) chain = chain.then(() => undefined);
        void chain.then(breakIt);
      }
      return Promise.resolve(held);
    },
  };
}

describe.each(TRANSPORTS)('contract checks over %s hand on what zod would', (kind) => {
  let fixture: RpcFixture;
  afterEach(() => fixture.close());

  async function connect() {
    const service = entries();
    fixture = await startRpcFixture(kind, { provide: (registry) => registry.provide(Entries, service) });
    const client = await fixture.connect();
    return { service, client, remote: await client.use(Entries) };
  }

  it('a method gets its argument as the contract parses it: unknown keys stripped, defaults filled, keys in order', async () => {
    const { service, client } = await connect();
    await client.invoke('entries', 'keep', [{ size: 1, extra: 'x', name: 'a' }]);
    await client.invoke('entries', 'keep', [{ name: 'b', size: 2, kind: 'dir' }]);
    expect(service.kept).toStrictEqual([
      { name: 'a', size: 1, kind: 'file' },
      { name: 'b', size: 2, kind: 'dir' },
    ]);
    expect(service.kept.map((value) => Object.keys(value))).toEqual([
      ['name', 'size', 'kind'],
      ['name', 'size', 'kind'],
    ]);
  });

  it('a caller gets its result as the contract parses it, and an argument it changes after the call is sent as it was', async () => {
    const { service, remote } = await connect();
    const argument = { name: 'a', size: 1, kind: 'file' };
    const call = remote.keep(argument, BACKGROUND_CONTEXT);
    argument.name = 'changed after the call';
    const result = await call;
    expect(result).toStrictEqual({ name: 'a', size: 1, kind: 'file' });
    expect(result).not.toBe(argument);
    expect(Object.isFrozen(result)).toBe(false);
    expect(service.kept).toStrictEqual([{ name: 'a', size: 1, kind: 'file' }]);
  });

  it('a result the method changes after returning it is sent as it was checked, never unchecked', async () => {
    const { client } = await connect();
    for (const turns of [-1, 0, 1, 2, 3, 4, 5, 6, 8, 12]) {
      const outcome = await client.invoke('entries', 'breakAfter', [turns]).then(
        (response) => response.value,
        (error: unknown) => error,
      );
      // Checked before it broke (sent as it was) or after (refused): never the broken value.
      if (outcome instanceof Error) expect(outcome).toMatchObject({ code: 'invalid_result' });
      else expect(outcome).toStrictEqual({ name: 'held', size: turns, kind: 'file' });
    }
  });

  it('an argument or a result the contract refuses is refused with the same code and reason as before', async () => {
    const { client } = await connect();
    const argument = await remoteErrorOf(client.invoke('entries', 'keep', [{ name: 1, size: 1 }]));
    expect(argument.toEnvelope()).toMatchObject({
      code: 'invalid_argument',
      message: 'Does not match the contract at $.args[0]: name: Invalid input: expected string, received number',
      data: { reason: 'schema', path: '$.args[0]' },
    });
    const result = await remoteErrorOf(client.invoke('entries', 'breakAfter', [0]));
    expect(result.toEnvelope()).toMatchObject({
      code: 'invalid_result',
      message: 'Does not match the contract at $.result: name: Invalid input: expected string, received number',
      data: { reason: 'schema', path: '$.result' },
    });
  });
});
