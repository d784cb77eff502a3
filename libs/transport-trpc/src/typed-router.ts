import type { TRPCBuiltRouter, TRPCMutationProcedure, TRPCSubscriptionProcedure } from '@trpc/server';
import type { TraceCarrier } from '@pi/context';
import type {
  EventKeys,
  EventValue,
  MethodArgs,
  MethodKeys,
  MethodResult,
  RemoteService,
  StateKeys,
  StateValue,
} from '@pi/remote';
import type { formatError } from './error-format';
import type { RpcRouter } from './router';

/**
 * The type of the router a host generates from its tokens, for a stock `@trpc/client`
 * (`createTRPCClient<HostRouter<typeof tokens>>`). The router itself is generated at run time from the registry
 * (router.ts); this type says the same thing from the tokens' interfaces, and a test over a real socket keeps the two
 * in step.
 */
type Root = Omit<RpcRouter['_def']['_config']['$types'], 'errorShape'> & {
  /** What error-format.ts sends (tRPC infers its default shape from our formatter's signature). */
  errorShape: ReturnType<typeof formatError>;
};

/** The input of `<service>.<method>`: the JSON arguments, a call id (for `$rpc.cancel`), the W3C trace carrier. */
export interface ServiceCallInput<A extends readonly unknown[]> {
  readonly a: A;
  /** Unique among this connection's calls in flight (1–64 characters). */
  readonly c: string;
  readonly t?: TraceCarrier;
}

/** A result with methods, state or events is a live object: it crosses as a reference id. */
type IsRemoteObject<R> = R extends readonly unknown[]
  ? false
  : R extends object
    ? [MethodKeys<R> | StateKeys<R> | EventKeys<R>] extends [never]
      ? false
      : true
    : false;

/** The output of `<service>.<method>`: `{ value }`, `{}` for void, `{ ref }` for a `remote(...)` result. */
export type ServiceCallOutput<R> =
  true extends IsRemoteObject<R> ? { ref: string } : [R] extends [void] ? { value?: undefined } : { value: R };

/** One frame of `<service>.$watch`, typed by the service's state cells and event streams. */
export type ServiceWatchFrame<T> =
  | {
      kind: 'snapshot';
      seq: number;
      state: { [K in StateKeys<T>]: { revision: number; value: StateValue<T[K]> } };
    }
  | {
      [K in StateKeys<T>]: {
        kind: 'state';
        seq: number;
        cell: K;
        revision: number;
        value: StateValue<T[K]>;
        trace: TraceCarrier;
      };
    }[StateKeys<T>]
  | {
      [K in EventKeys<T>]: { kind: 'event'; seq: number; stream: K; event: EventValue<T[K]>; trace: TraceCarrier };
    }[EventKeys<T>];

type MethodProcedure<F> = TRPCMutationProcedure<{
  meta: Root['meta'];
  input: ServiceCallInput<MethodArgs<F>>;
  output: ServiceCallOutput<MethodResult<F>>;
  errorShape: Root['errorShape'];
}>;

type WatchProcedure<T> = TRPCSubscriptionProcedure<{
  meta: Root['meta'];
  input: void;
  output: AsyncIterable<ServiceWatchFrame<T>, void, unknown>;
  errorShape: Root['errorShape'];
}>;

/** The sub-router of one service: a mutation per method and `$watch`. */
export type ServiceRouterRecord<T> = { [K in MethodKeys<T>]: MethodProcedure<T[K]> } & { $watch: WatchProcedure<T> };

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any service interface
type AnyRemoteService = RemoteService<any>;
type ServiceOf<Token> = Token extends RemoteService<infer T> ? T : never;

/** Tokens keyed by their ids, as `hostTokens` checks them. */
export type HostTokens = Readonly<Record<string, AnyRemoteService>>;

/** A host's router type from its tokens (keyed by service id), with `$rpc` as every host serves it. */
export type HostRouter<Tokens extends HostTokens> = TRPCBuiltRouter<
  Root,
  { [Id in keyof Tokens & string]: ServiceRouterRecord<ServiceOf<Tokens[Id]>> } & { $rpc: RpcRouter['_def']['record'] }
>;

/**
 * Tokens keyed by service id, for `HostRouter`: a token's id is a plain `string` to the type system, so the key
 * carries it, and this checks at run time that every key is its token's id.
 */
export function hostTokens<const Tokens extends HostTokens>(tokens: Tokens): Tokens {
  for (const [key, token] of Object.entries(tokens)) {
    if (key !== token.id) throw new TypeError(`Token "${token.id}" is keyed "${key}": key each token by its id`);
  }
  return Object.freeze({ ...tokens });
}
