import { TRPCClientError, createTRPCClient, createWSClient, wsLink } from '@trpc/client';
import superjson from 'superjson';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it, vi } from 'vitest';
import type { ModelsService, ModelsState } from '@pi/providers-builtin';
import { sessionTokens, type SessionRouter } from '@pi/session-api';
import type { ServiceWatchFrame } from '@pi/transport-trpc';
import type { ChatService } from '@pi/chat';
import {
  PROCESS_TEST_TIMEOUT_MS,
  createSandbox,
  readConnectionFile,
  runPiSession,
  type SessionProcess,
  type SessionSandbox,
} from './pi-session-process';

let sandbox: SessionSandbox;
let session: SessionProcess;
let url: string;
let wsClient: ReturnType<typeof createWSClient>;
let client: ReturnType<typeof createTRPCClient<SessionRouter>>;

/** A stock @trpc/client 11 over a real WebSocket: its own wsLink, the token in connectionParams. */
beforeAll(async () => {
  sandbox = await createSandbox();
  session = runPiSession(sandbox, [...sandbox.flags, '--port', '0']);
  const listening = await session.listening();
  url = listening.url ?? '';
  const { token } = await readConnectionFile(listening.connectionFile);
  wsClient = createWSClient({ url, WebSocket: WebSocket as never, connectionParams: { token } });
  client = createTRPCClient<SessionRouter>({ links: [wsLink({ client: wsClient, transformer: superjson })] });
}, PROCESS_TEST_TIMEOUT_MS);

afterAll(async () => {
  await wsClient?.close();
  await session?.stop('SIGKILL');
  await sandbox?.remove();
});

describe(
  'a stock tRPC client typed by SessionRouter against a real pi-session',
  { timeout: PROCESS_TEST_TIMEOUT_MS },
  () => {
    it('calls methods with { a, c } inputs and gets { value } or {} back', async () => {
      expect(await client.models.refresh.mutate({ a: [], c: 'r1' })).toEqual({});
      const selected = await client.models.select.mutate({ a: [{ provider: 'offline', modelId: 'echo' }], c: 's1' });
      expectTypeOf(selected).toEqualTypeOf<{ value?: undefined }>();
      const prompt = await client.chat.prompt.mutate({ a: [{ text: 'hello, stock client' }], c: 'p1' });
      expect(prompt).toEqual({ value: { accepted: true, operationId: expect.any(String), error: null } });
      expect(await client.$rpc.hello.mutate()).toMatchObject({ clientId: expect.any(String) });
    });

    it('receives $watch frames, the snapshot typed by the contract', async () => {
      const frame = await new Promise<unknown>((resolve, reject) => {
        const subscription = client.models.$watch.subscribe(undefined, {
          onData: (data) => {
            expectTypeOf(data).toEqualTypeOf<ServiceWatchFrame<ModelsService>>();
            if (data.kind === 'snapshot') {
              expectTypeOf(data.state.state.value).toEqualTypeOf<ModelsState>();
              subscription.unsubscribe();
              resolve(data);
            }
          },
          onError: reject,
        });
      });
      expect(frame).toMatchObject({
        kind: 'snapshot',
        seq: 0,
        state: { state: { value: { catalog: expect.any(Object) } } },
      });
      const chatFrame = await new Promise<ServiceWatchFrame<ChatService>>((resolve) => {
        const subscription = client.chat.$watch.subscribe(undefined, {
          onData: (data) => {
            subscription.unsubscribe();
            resolve(data);
          },
        });
      });
      expect(chatFrame.kind).toBe('snapshot');
    });

    it("a refused argument is a TRPCClientError with BAD_REQUEST, pi's stable code kept in data.remote", async () => {
      const failed = await client.models.select.mutate({ a: ['echo' as never], c: 'bad' }).then(
        () => 'succeeded',
        (cause: unknown) => {
          // What a stock tRPC user writes: tRPC's own codes, with pi's finer code beside them.
          if (cause instanceof TRPCClientError && cause.data?.code === 'BAD_REQUEST') return cause;
          throw cause;
        },
      );
      expect(failed).toBeInstanceOf(TRPCClientError);
      const error = failed as TRPCClientError<SessionRouter>;
      expect(error.data).toMatchObject({ code: 'BAD_REQUEST', httpStatus: 400, remote: { code: 'invalid_argument' } });
      expect(error.shape?.code).toBe(-32600);
      expect(error.message).toBe(error.data?.remote.message);
    });

    it("a service's own failure is a TRPCClientError whose code fits it (NOT_FOUND for an unknown operation)", async () => {
      const error = await client.chat.requestAbort.mutate({ a: ['no-such-operation'], c: 'abort-1' }).then(
        () => undefined,
        (cause: unknown) => (cause instanceof TRPCClientError ? (cause as TRPCClientError<SessionRouter>) : undefined),
      );
      expect(error?.data).toMatchObject({ code: 'NOT_FOUND', httpStatus: 404, remote: { code: 'unknown_operation' } });
    });

    it('a stock client presenting a wrong token is refused: closed with 4401 not_authorized, its call failed', async () => {
      const closes: Array<{ code: number; reason: string }> = [];
      const refusedClient = createWSClient({
        url,
        WebSocket: WebSocket as never,
        connectionParams: { token: 'not-the-token' },
        // No second attempt within the test: the first refusal is what is checked.
        retryDelayMs: () => 60_000,
        onClose: (cause) => {
          const event = cause as { code: number; reason: unknown };
          closes.push({ code: event.code, reason: String(event.reason) });
        },
      });
      try {
        const refused = createTRPCClient<SessionRouter>({
          links: [wsLink({ client: refusedClient, transformer: superjson })],
        });
        const call = refused.$rpc.hello.mutate().then(
          () => undefined,
          (cause: TRPCClientError<SessionRouter>) => cause,
        );
        await vi.waitFor(() => expect(closes[0]).toEqual({ code: 4401, reason: 'not_authorized' }));
        // The call fails either way: answered UNAUTHORIZED if it reached the host before the refusal's close, or
        // failed by the client. A request the close came before stays queued for the client's next attempt, which
        // closing the client fails (on a loaded machine that happens). The refusal's own frame (id null,
        // UNAUTHORIZED) answers no request, so a stock client surfaces only the close.
        await refusedClient.close();
        const error = await call;
        expect(error).toBeInstanceOf(Error);
        expect([{ code: 'not_authorized', message: 'Not authorized' }, undefined]).toContainEqual(error?.data?.remote);
      } finally {
        await refusedClient.close();
      }
    });

    it('SessionRouter names exactly the services the default session describes', async () => {
      const description = await client.$rpc.describe.mutate();
      expect(description.services.map((service) => service.id)).toEqual(Object.keys(sessionTokens));
    });
  },
);
