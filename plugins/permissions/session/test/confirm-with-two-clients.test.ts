import { describe, expect, it } from 'vitest';
import { BACKGROUND_CONTEXT, type Context } from '@pi/context';
import { ConfirmInteraction, type ConfirmRequest, type ConfirmResponse } from '@pi/permissions';
import type { RpcClient } from '@pi/transport-trpc';
import { eventually } from '@pi/test-support';
import {
  bashPrompt,
  durableToolResults,
  finalAnswer,
  rawClient,
  serving,
  startPermissionsHost,
  type PermissionsHost,
  type Transport,
} from './permissions-host';

type Handler = (request: ConfirmRequest, context: Context) => Promise<ConfirmResponse>;

interface Attached {
  readonly client: RpcClient;
  readonly asked: ConfirmRequest[];
}

/**
 * Two presentations attached to one session, both able to confirm: each answers with `handler` and records what
 * it was asked. The broker asks one of them (the latest to declare its handler).
 */
async function twoClients(host: PermissionsHost, handler: (attached: Attached) => Handler): Promise<Attached[]> {
  const attached: Attached[] = [];
  for (let index = 0; index < 2; index += 1) {
    const entry = { client: await host.fixture.connect(), asked: [] as ConfirmRequest[] };
    const answer = handler(entry);
    entry.client.handle(ConfirmInteraction, (request, context) => {
      entry.asked.push(request);
      return answer(request, context);
    });
    attached.push(entry);
  }
  await serving(host.fixture, 2);
  return attached;
}

const decide =
  (decision: ConfirmResponse['decision']): ((attached: Attached) => Handler) =>
  () =>
  async () => ({ decision });

const askedOf = (attached: readonly Attached[]) => attached.flatMap((entry) => entry.asked);

describe.each<Transport>(['loopback', 'websocket'])(
  'confirming bash with two clients attached, over %s',
  (transport) => {
    it('asks one client; deny → the result says denied and nothing ran; the run settles', async () => {
      const host = await startPermissionsHost(transport);
      const clients = await twoClients(host, decide('deny'));

      const { outcome } = await host.run(bashPrompt('rm -rf build'));

      expect(outcome).toEqual({ outcome: 'completed', error: null });
      expect(askedOf(clients)).toEqual([
        { tool: 'bash', summary: 'rm -rf build', details: [], sessionGrant: 'command', timeoutMs: 300_000 },
      ]);
      expect(clients.filter((entry) => entry.asked.length > 0)).toHaveLength(1);
      expect(host.runs).toEqual([]);
      const [result] = await durableToolResults(host.fixture);
      expect(result).toMatchObject({
        toolName: 'bash',
        isError: true,
        content: [{ type: 'text', text: 'Permission denied: the user denied it; bash did not run (user_denied)' }],
        details: { permission: 'denied', tool: 'bash', code: 'user_denied' },
      });
      expect(await finalAnswer(host.fixture)).toContain('Permission denied');
    });

    it('allow once → it runs, and the next run of the same command is asked again', async () => {
      const host = await startPermissionsHost(transport);
      const clients = await twoClients(host, decide('allow_once'));

      await host.run(bashPrompt('echo hi'));
      expect(host.runs).toEqual([{ command: 'echo hi' }]);
      const [result] = await durableToolResults(host.fixture);
      expect(result).toMatchObject({ toolName: 'bash', isError: false, content: [{ type: 'text', text: 'bash ran' }] });

      await host.run(bashPrompt('echo hi'));
      expect(askedOf(clients)).toHaveLength(2);
      expect(host.runs).toHaveLength(2);
    });

    it('allow for this session → that exact command runs unasked from then on; another command is asked', async () => {
      const host = await startPermissionsHost(transport);
      const clients = await twoClients(host, decide('allow_session'));

      await host.run(bashPrompt('npm test'));
      await host.run(bashPrompt('npm test'));
      expect(askedOf(clients).map((request) => request.summary)).toEqual(['npm test']);

      await host.run(bashPrompt('npm publish'));
      expect(askedOf(clients).map((request) => request.summary)).toEqual(['npm test', 'npm publish']);
      expect(host.runs).toEqual([{ command: 'npm test' }, { command: 'npm test' }, { command: 'npm publish' }]);
    });

    it('the asked client disconnecting mid-confirm denies the call (fail closed), and the run settles', async () => {
      const host = await startPermissionsHost(transport);
      const clients = await twoClients(host, (attached) => () => {
        attached.client.close();
        return new Promise<never>(() => undefined);
      });

      const { outcome } = await host.run(bashPrompt('echo hi'));

      expect(outcome).toEqual({ outcome: 'completed', error: null });
      expect(host.runs).toEqual([]);
      const [result] = await durableToolResults(host.fixture);
      expect(result).toMatchObject({ isError: true, details: { code: 'disconnected' } });
      expect(result?.content[0]?.text).toBe(
        'Permission denied: the client asking the user disconnected; bash did not run (disconnected)',
      );
      // Only the asked client went away; the other was never asked and is still attached.
      const [stayed] = clients.filter((entry) => entry.asked.length === 0);
      expect(stayed?.client.connection.value.status).toBe('connected');
      expect(askedOf(clients)).toHaveLength(1);
    });

    it('no client able to confirm → denied, and the run settles', async () => {
      const host = await startPermissionsHost(transport);
      await host.fixture.connect();

      const { outcome } = await host.run(bashPrompt('echo hi'));

      expect(outcome.outcome).toBe('completed');
      expect(host.runs).toEqual([]);
      expect((await durableToolResults(host.fixture))[0]).toMatchObject({
        isError: true,
        details: { code: 'no_handler' },
      });
    });

    it('no answer in time → denied, and the open dialog is cancelled', async () => {
      const host = await startPermissionsHost(transport, { timeoutMs: 50 });
      let cancelled = 0;
      await twoClients(
        host,
        () => (_request, context) =>
          new Promise<never>((_resolve, reject) =>
            context.abortSignal?.addEventListener('abort', () => {
              cancelled += 1;
              reject(new Error('closed'));
            }),
          ),
      );

      await host.run(bashPrompt('echo hi'));

      expect(host.runs).toEqual([]);
      const [result] = await durableToolResults(host.fixture);
      expect(result).toMatchObject({ isError: true, details: { code: 'timeout' } });
      expect(result?.content[0]?.text).toContain('the user did not answer in time');
      await eventually(() => cancelled === 1);
    });

    it('aborting the run while the user is asked closes the dialog, denies the call, and settles as aborted', async () => {
      const host = await startPermissionsHost(transport);
      let opened = (): void => undefined;
      const open = new Promise<void>((resolve) => (opened = resolve));
      let cancelled = 0;
      await twoClients(host, () => (_request, context) => {
        opened();
        return new Promise<never>((_resolve, reject) =>
          context.abortSignal?.addEventListener('abort', () => {
            cancelled += 1;
            reject(new Error('closed'));
          }),
        );
      });

      const operationId = await host.start(bashPrompt('sleep 100'));
      await open;
      expect((await host.lane.requestAbort(operationId, BACKGROUND_CONTEXT)).isOk()).toBe(true);

      expect(await host.lane.settled(operationId)).toEqual({ outcome: 'aborted', error: null });
      expect(host.runs).toEqual([]);
      expect((await durableToolResults(host.fixture))[0]).toMatchObject({
        isError: true,
        details: { code: 'cancelled' },
      });
      await eventually(() => cancelled === 1);
    });

    it('a malformed answer on the wire → denied', async () => {
      const host = await startPermissionsHost(transport);
      const raw = await rawClient(host.fixture, transport);
      raw.channel.serveInteractions([ConfirmInteraction.id], (frame) => {
        if (frame.kind === 'request')
          void raw.channel.reply({ requestId: frame.requestId, response: { decision: 'allow_once', scope: 'all' } });
      });
      await serving(host.fixture, 1);

      await host.run(bashPrompt('echo hi'));

      expect(host.runs).toEqual([]);
      expect((await durableToolResults(host.fixture))[0]).toMatchObject({
        isError: true,
        details: { code: 'invalid_result' },
      });
    });
  },
);
