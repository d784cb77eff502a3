import type { RpcStub } from 'capnweb';
import type { FanoutValue } from './payload';

/** The peers' own contracts for the bench (tRPC's is its router, typed by the server entry). */

/** Cap'n Web: a client's callback for the fan-out cell, a stub the server calls once per change. */
export type CapnwebCellListener = RpcStub<(value: FanoutValue) => void>;

/** Cap'n Web: the server's main object. */
export interface CapnwebBenchApi {
  echo(value: unknown): unknown;
  /** The server keeps the callback and calls it with every later change of the fan-out cell. */
  subscribe(listener: (value: FanoutValue) => void): void;
}

/** birpc: what a bench client serves. */
export interface BirpcClientFunctions {
  onChange(value: FanoutValue): void;
}

/** birpc: what the bench server serves. */
export interface BirpcServerFunctions {
  echo(value: unknown): unknown;
  /** From now on, the server calls this client's `onChange` with every change of the fan-out cell. */
  subscribe(): void;
}
