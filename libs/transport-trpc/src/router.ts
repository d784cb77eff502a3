import type { AnyRouter } from '@trpc/server';
import type {
  ConnectionEndpoint,
  HostDescription,
  InteractionFrame,
  ServiceRegistry,
  Target,
  WatchFrame,
} from '@pi/remote';
import { t } from './trpc';
import { readServiceCall } from './call-envelope';
import type { EncodedWatchFrame } from './encoded-frame';
import { FrameStream } from './frame-stream';
import type { OutboundPressure } from './outbound-pressure';
import { WatchBacklog } from './watch-backlog';
import { cancelInput, interactionsInput, referenceCallInput, referenceInput, replyInput } from './wire-schema';

/**
 * The host's tRPC router, generated from the exposures registered when the host starts: a sub-router per
 * remote service with a mutation per method and a `$watch` subscription for its state and events, plus
 * `$rpc` for what is not tied to one service (references, cancellation, interactions, the host's description).
 * `describe` describes the services of `serviceIds`, the ones the router serves.
 */
export function createHostRouter(
  registry: ServiceRegistry,
  serviceIds: readonly string[],
  describe: () => HostDescription,
): AnyRouter {
  const services: Record<string, AnyRouter> = {};
  for (const id of serviceIds) {
    const service = registry.exposed(id);
    if (service === undefined) continue;
    const procedures: Record<string, unknown> = { $watch: watchProcedure({ service: id }) };
    for (const member of Object.keys(service.exposure.methods)) {
      procedures[member] = t.procedure
        .input(readServiceCall)
        .mutation(({ ctx, input }) =>
          ctx.endpoint.call({ target: { service: id }, member, args: input.a, trace: input.t }, input.c),
        );
    }
    services[id] = t.router(procedures as never);
  }
  return t.router({ ...services, $rpc: rpcRouter(describe) } as never);
}

/** `$rpc`: what every host serves besides its services. Its type is what a stock tRPC client sees of it. */
export function rpcRouter(describe: () => HostDescription) {
  return t.router({ ...rpcProcedures, describe: t.procedure.mutation(() => describe()) });
}

export type RpcRouter = ReturnType<typeof rpcRouter>;

const rpcProcedures = {
  hello: t.procedure.mutation(({ ctx }) => ({ clientId: ctx.endpoint.clientId })),
  invoke: t.procedure
    .input(referenceCallInput)
    .mutation(({ ctx, input }) =>
      ctx.endpoint.call({ target: { ref: input.r }, member: input.m, args: input.a, trace: input.t }, input.c),
    ),
  watch: t.procedure
    .input(referenceInput)
    .subscription(({ ctx, input }) => streamWatch(ctx.endpoint, { ref: input.r }, ctx.pressure)),
  release: t.procedure.input(referenceInput).mutation(({ ctx, input }) => {
    ctx.endpoint.release(input.r);
    return null;
  }),
  cancel: t.procedure.input(cancelInput).mutation(({ ctx, input }) => {
    ctx.endpoint.cancel(input.c);
    return null;
  }),
  interactions: t.procedure
    .input(interactionsInput)
    .subscription(
      ({ ctx, input }) =>
        new FrameStream<InteractionFrame>(
          (push, fail) => ctx.endpoint.serveInteractions(input.ids, push, fail),
          ctx.endpoint.openOutbound(),
        ),
    ),
  reply: t.procedure.input(replyInput).mutation(({ ctx, input }) => {
    ctx.endpoint.reply(input as never);
    return null;
  }),
};

function watchProcedure(target: Target) {
  return t.procedure.subscription(({ ctx }) => streamWatch(ctx.endpoint, target, ctx.pressure));
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
