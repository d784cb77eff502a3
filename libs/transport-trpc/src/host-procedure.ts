import type { CallResponse } from '@pi/remote';
import { readServiceCall, type ServiceCallEnvelope } from './call-envelope';
import { t, type HostRequestContext } from './trpc';

/**
 * One procedure of a host, declared once: how its input is read and what it does. The same declaration becomes
 * a tRPC procedure (the router a stock `@trpc/client` is typed by, and that tRPC's own adapter can serve) and an
 * entry of the table our wire server dispatches from without tRPC's middleware pipeline (wire-server.ts).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a table holds procedures of every input type
export interface HostProcedure<I = any, O = unknown> {
  readonly type: 'mutation' | 'subscription';
  /** Reads the client's input; a throw refuses the call as tRPC's input validation does (`BAD_REQUEST`). None:
   *  the procedure takes no input and ignores what was sent, as a tRPC procedure without `.input()` does. */
  readonly parse?: (raw: unknown) => I;
  readonly resolve: (ctx: HostRequestContext, input: I) => O;
  /** A service call (input `{ a, c, t }`, result a `CallResponse`): it may also arrive as a compact call. */
  readonly call?: true;
}

type WithInput<I, O> = HostProcedure<I, O> & { readonly parse: (raw: unknown) => I };

/** Flattened `service.member` → procedure: what the wire server dispatches from. */
export type ProcedureTable = ReadonlyMap<string, HostProcedure>;

export function mutation<I, O>(parse: (raw: unknown) => I, resolve: (ctx: HostRequestContext, input: I) => O) {
  return { type: 'mutation', parse, resolve } satisfies WithInput<I, O>;
}

/** A method of a service: a mutation that pi's own client may also send as a compact call (compact-calls.ts). */
export function serviceCall(resolve: (ctx: HostRequestContext, input: ServiceCallEnvelope) => Promise<CallResponse>) {
  return { type: 'mutation', parse: readServiceCall, resolve, call: true } satisfies WithInput<
    ServiceCallEnvelope,
    Promise<CallResponse>
  >;
}

export function subscription<I, O extends AsyncIterable<unknown>>(
  parse: (raw: unknown) => I,
  resolve: (ctx: HostRequestContext, input: I) => O,
) {
  return { type: 'subscription', parse, resolve } satisfies WithInput<I, O>;
}

export function mutationWithoutInput<O>(resolve: (ctx: HostRequestContext) => O) {
  return { type: 'mutation', resolve } satisfies HostProcedure<undefined, O>;
}

export function subscriptionWithoutInput<O extends AsyncIterable<unknown>>(resolve: (ctx: HostRequestContext) => O) {
  return { type: 'subscription', resolve } satisfies HostProcedure<undefined, O>;
}

/** The tRPC mutation a declaration stands for. */
export function trpcMutation<I, O>(procedure: WithInput<I, O>) {
  return t.procedure.input(procedure.parse).mutation(({ ctx, input }) => procedure.resolve(ctx, input as I));
}

/** The tRPC subscription a declaration stands for. */
export function trpcSubscription<I, O extends AsyncIterable<unknown>>(procedure: WithInput<I, O>) {
  return t.procedure.input(procedure.parse).subscription(({ ctx, input }) => procedure.resolve(ctx, input as I));
}

/** The tRPC mutation of a declaration without input. */
export function trpcMutationWithoutInput<O>(procedure: { resolve: (ctx: HostRequestContext) => O }) {
  return t.procedure.mutation(({ ctx }) => procedure.resolve(ctx));
}

/** The tRPC subscription of a declaration without input. */
export function trpcSubscriptionWithoutInput<O extends AsyncIterable<unknown>>(procedure: {
  resolve: (ctx: HostRequestContext) => O;
}) {
  return t.procedure.subscription(({ ctx }) => procedure.resolve(ctx));
}
