import type { AnyRouter } from '@trpc/server';
import type {
  ConnectionEndpoint,
  HostDescription,
  InteractionFrame,
  ServiceRegistry,
  Target,
  WatchFrame,
} from '@pi/remote';
import { RemoteError } from '@pi/remote';
import {
  mutation,
  mutationWithoutInput,
  serviceCall,
  subscription,
  subscriptionWithoutInput,
  trpcMutation,
  trpcMutationWithoutInput,
  trpcSubscription,
  trpcSubscriptionWithoutInput,
  type HostProcedure,
  type ProcedureTable,
} from './host-procedure';
import { t } from './trpc';
import type { EncodedWatchFrame } from './encoded-frame';
import { FrameStream } from './frame-stream';
import type { OutboundPressure } from './outbound-pressure';
import { WatchBacklog } from './watch-backlog';
import {
  PROTOCOL_VERSION,
  VERSION_MISMATCH,
  readHelloInput,
  protocolMismatch,
  type HelloAnswer,
  type HostHello,
} from './hello';
import { cancelInput, interactionsInput, referenceCallInput, referenceInput, replyInput } from './wire-schema';

/** What a host serves: the tRPC router a stock client is typed by, and the same procedures as a flat table. */
export interface HostProcedures {
  readonly router: AnyRouter;
  readonly table: ProcedureTable;
}

/**
 * The host's procedures, generated from the exposures registered when the host starts: a sub-router per
 * remote service with a mutation per method and a `$watch` subscription for its state and events, plus
 * `$rpc` for what is not tied to one service (references, cancellation, interactions, the host's description).
 * `describe` describes the services of `serviceIds`, the ones the router serves.
 */
export function createHostProcedures(
  registry: ServiceRegistry,
  serviceIds: readonly string[],
  describe: () => HostDescription,
  hello?: HostHello,
): HostProcedures {
  const table = new Map<string, HostProcedure>();
  const services: Record<string, AnyRouter> = {};
  for (const id of serviceIds) {
    const service = registry.exposed(id);
    if (service === undefined) continue;
    const watch = watchProcedure({ service: id });
    table.set(`${id}.$watch`, watch);
    const procedures: Record<string, unknown> = { $watch: trpcSubscriptionWithoutInput(watch) };
    // One target per service, not one per call (the endpoint only reads it).
    const target = Object.freeze({ service: id });
    for (const member of Object.keys(service.exposure.methods)) {
      const method = serviceCall((ctx, input) =>
        ctx.endpoint.call({ target, member, args: input.a, trace: input.t }, input.c),
      );
      table.set(`${id}.${member}`, method);
      procedures[member] = trpcMutation(method);
    }
    services[id] = t.router(procedures as never);
  }
  const rpc = rpcProcedures(describe, hello);
  for (const [name, procedure] of Object.entries(rpc)) table.set(`$rpc.${name}`, procedure as HostProcedure);
  return { router: t.router({ ...services, $rpc: rpcRouterOf(rpc) } as never), table };
}

function rpcProcedures(describe: () => HostDescription, hello: HostHello | undefined) {
  return {
    hello: mutation(readHelloInput, (ctx, input) => answerHello(ctx.endpoint.clientId, input, hello)),
    describe: mutationWithoutInput(() => describe()),
    invoke: mutation(readInput(referenceCallInput), (ctx, input) =>
      ctx.endpoint.call({ target: { ref: input.r }, member: input.m, args: input.a, trace: input.t }, input.c),
    ),
    watch: subscription(readInput(referenceInput), (ctx, input) =>
      streamWatch(ctx.endpoint, { ref: input.r }, ctx.pressure),
    ),
    release: mutation(readInput(referenceInput), (ctx, input) => {
      ctx.endpoint.release(input.r);
      return null;
    }),
    cancel: mutation(readInput(cancelInput), (ctx, input) => {
      ctx.endpoint.cancel(input.c);
      return null;
    }),
    interactions: subscription(
      readInput(interactionsInput),
      (ctx, input) =>
        new FrameStream<InteractionFrame>(
          (push, fail) => ctx.endpoint.serveInteractions(input.ids, push, fail),
          ctx.endpoint.openOutbound(),
        ),
    ),
    reply: mutation(readInput(replyInput), (ctx, input) => {
      ctx.endpoint.reply(input as never);
      return null;
    }),
  };
}

function rpcRouterOf(rpc: ReturnType<typeof rpcProcedures>) {
  return t.router({
    hello: trpcMutation(rpc.hello),
    describe: trpcMutationWithoutInput(rpc.describe),
    invoke: trpcMutation(rpc.invoke),
    watch: trpcSubscription(rpc.watch),
    release: trpcMutation(rpc.release),
    cancel: trpcMutation(rpc.cancel),
    interactions: trpcSubscription(rpc.interactions),
    reply: trpcMutation(rpc.reply),
  });
}

/** `$rpc`: what every host serves besides its services. Its type is what a stock tRPC client sees of it. */
export type RpcRouter = ReturnType<typeof rpcRouterOf>;

/**
 * The hello answer: the client's id, the protocol, and what the host runs. A client that declares another protocol
 * major is refused here (`version_mismatch`), so an old daemon and a new client part at once; one that declares
 * nothing (a stock tRPC client) is answered.
 */
function answerHello(
  clientId: string,
  input: { protocol: string } | undefined,
  hello: HostHello | undefined,
): HelloAnswer {
  const mismatch = input === undefined ? null : protocolMismatch(PROTOCOL_VERSION, input.protocol);
  if (mismatch !== null) throw new RemoteError(VERSION_MISMATCH, mismatch);
  return {
    clientId,
    protocol: PROTOCOL_VERSION,
    ...(hello === undefined ? {} : { pluginApi: hello.pluginApi, plugins: [...hello.plugins] }),
  };
}

/** A zod schema as an input reader: its parse, which throws what tRPC's input validation would catch. */
function readInput<T>(schema: { parse(raw: unknown): T }): (raw: unknown) => T {
  return (raw) => schema.parse(raw);
}

function watchProcedure(target: Target) {
  return subscriptionWithoutInput((ctx) => streamWatch(ctx.endpoint, target, ctx.pressure));
}

/**
 * Watch frames go out through a stream that tells the endpoint when each is written (see `ConnectionEndpoint.call`),
 * held and coalesced while the connection does not drain, and encoded once per value (`EncodedWatchFrame`).
 */
function streamWatch(
  endpoint: ConnectionEndpoint,
  target: Target,
  pressure: OutboundPressure,
): FrameStream<WatchFrame, EncodedWatchFrame> {
  return new FrameStream<WatchFrame, EncodedWatchFrame>(
    (push, fail) => endpoint.watch(target, push, fail),
    endpoint.openOutbound(),
    { backlog: new WatchBacklog(pressure), pressure },
  );
}
