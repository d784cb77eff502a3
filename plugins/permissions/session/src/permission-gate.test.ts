import { describe, expect, it } from 'vitest';
import { BACKGROUND_CONTEXT, withAbortSignal, type CodingAgentSessionPluginContext } from '@pi/plugin-api';
import type { ConfirmRequest, ConfirmResponse } from '@pi/permissions';
import { RemoteError } from '@pi/remote';
import { createPermissionGate } from './permission-gate';

type Interactions = CodingAgentSessionPluginContext['interactions'];
type Answer = ConfirmResponse['decision'] | RemoteError | Error | Promise<ConfirmResponse>;

/** An interaction broker stand-in: answers each request with the next of `answers`, and records what it was asked. */
function broker(...answers: Answer[]) {
  const asked: Array<{ request: ConfirmRequest; timeoutMs: number | undefined }> = [];
  const interactions: Interactions = {
    request: async (_interaction, request, _context, options) => {
      asked.push({ request: request as ConfirmRequest, timeoutMs: options?.timeoutMs });
      const answer = answers.shift();
      if (answer === undefined) throw new Error('asked more often than the test expected');
      if (answer instanceof Error) throw answer;
      return (typeof answer === 'string' ? { decision: answer } : await answer) as never;
    },
  };
  return { interactions, asked };
}

function askGate(...answers: Answer[]) {
  const { interactions, asked } = broker(...answers);
  return { gate: createPermissionGate({ mode: 'ask', timeoutMs: 1234, interactions }), asked };
}

const ls = { command: 'ls -la' };

describe('the permission gate in ask mode', () => {
  it('asks with the call’s description, its grant scope and the timeout, and allows once', async () => {
    const { gate, asked } = askGate('allow_once', 'deny');
    expect(await gate.check('bash', ls, BACKGROUND_CONTEXT)).toEqual({ allowed: true });
    expect(asked).toEqual([
      {
        request: { tool: 'bash', summary: 'ls -la', details: [], sessionGrant: 'command', timeoutMs: 1234 },
        timeoutMs: 1234,
      },
    ]);
    // Once means once: the same command is asked about again.
    expect(await gate.check('bash', ls, BACKGROUND_CONTEXT)).toEqual({ allowed: false, code: 'user_denied' });
    expect(asked).toHaveLength(2);
  });

  it('denies when the user denies', async () => {
    const { gate } = askGate('deny');
    expect(await gate.check('write', { path: 'a', content: '' }, BACKGROUND_CONTEXT)).toEqual({
      allowed: false,
      code: 'user_denied',
    });
  });

  it('for bash, "allow for this session" holds for that exact command and nothing else', async () => {
    const { gate, asked } = askGate('allow_session', 'deny', 'deny');
    expect(await gate.check('bash', ls, BACKGROUND_CONTEXT)).toEqual({ allowed: true });
    expect(await gate.check('bash', { command: 'ls -la' }, BACKGROUND_CONTEXT)).toEqual({ allowed: true });
    expect(asked).toHaveLength(1);

    expect((await gate.check('bash', { command: 'ls -la ' }, BACKGROUND_CONTEXT)).allowed).toBe(false);
    expect((await gate.check('bash', { command: 'rm -rf ~' }, BACKGROUND_CONTEXT)).allowed).toBe(false);
    expect(asked.map((entry) => entry.request.summary)).toEqual(['ls -la', 'ls -la ', 'rm -rf ~']);
  });

  it('for a file tool, "allow for this session" holds for that tool, any file, and not for the others', async () => {
    const { gate, asked } = askGate('allow_session', 'deny');
    const edit = (path: string) => ({ path, oldText: 'a', newText: 'b' });
    expect(await gate.check('edit', edit('a.ts'), BACKGROUND_CONTEXT)).toEqual({ allowed: true });
    expect(asked[0]?.request.sessionGrant).toBe('tool');
    expect(await gate.check('edit', edit('b.ts'), BACKGROUND_CONTEXT)).toEqual({ allowed: true });
    expect((await gate.check('write', { path: 'a.ts', content: 'x' }, BACKGROUND_CONTEXT)).allowed).toBe(false);
    expect(asked.map((entry) => entry.request.tool)).toEqual(['edit', 'write']);
  });

  it.each([
    ['no_handler', 'no_handler'],
    ['timeout', 'timeout'],
    ['disconnected', 'disconnected'],
    ['invalid_result', 'invalid_result'],
    ['cancelled', 'cancelled'],
    ['user_declined', 'failed'],
    ['internal', 'failed'],
  ])('fails closed when the broker rejects with %s (%s)', async (brokerCode, code) => {
    const { gate } = askGate(new RemoteError(brokerCode, 'whatever'));
    expect(await gate.check('bash', ls, BACKGROUND_CONTEXT)).toEqual({ allowed: false, code });
  });

  it('fails closed on an unexpected failure', async () => {
    const { gate } = askGate(new Error('boom'));
    expect(await gate.check('bash', ls, BACKGROUND_CONTEXT)).toEqual({ allowed: false, code: 'failed' });
  });

  it('asks one confirmation at a time; a call waiting its turn finds the grant the first answer made', async () => {
    let answer = (_response: ConfirmResponse): void => undefined;
    const first = new Promise<ConfirmResponse>((resolve) => (answer = resolve));
    const { gate, asked } = askGate(first);
    const checks = [
      gate.check('edit', { path: 'a' }, BACKGROUND_CONTEXT),
      gate.check('edit', { path: 'b' }, BACKGROUND_CONTEXT),
    ];
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(asked).toHaveLength(1);
    answer({ decision: 'allow_session' });
    expect(await Promise.all(checks)).toEqual([{ allowed: true }, { allowed: true }]);
    expect(asked).toHaveLength(1);
  });

  it('a call waiting its turn is denied as cancelled when its run is aborted, without asking', async () => {
    const first = new Promise<ConfirmResponse>(() => undefined);
    const { gate, asked } = askGate(first);
    void gate.check('bash', ls, BACKGROUND_CONTEXT);
    const abort = new AbortController();
    const waiting = gate.check('bash', { command: 'pwd' }, withAbortSignal(abort.signal, BACKGROUND_CONTEXT));
    abort.abort();
    expect(await waiting).toEqual({ allowed: false, code: 'cancelled' });
    expect(asked).toHaveLength(1);
  });
});

describe('the permission gate in deny-all mode', () => {
  it('denies every call without asking anyone', async () => {
    const { interactions, asked } = broker();
    const gate = createPermissionGate({ mode: 'deny-all', timeoutMs: 1, interactions });
    expect(await gate.check('bash', ls, BACKGROUND_CONTEXT)).toEqual({ allowed: false, code: 'deny_all' });
    expect(asked).toEqual([]);
  });
});
