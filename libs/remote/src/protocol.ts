import type { TraceCarrier } from '@pi/context';
import type { RemoteErrorEnvelope } from './errors';
import type { JsonValue } from '@pi/json';

/**
 * The transport-agnostic messages between a consuming peer and a providing host. A transport carries
 * them in its own frames (see docs/protocol.md); nothing else about a call crosses a connection.
 */

/** What a call or subscription addresses: a provided service by id, or a remote reference of this connection. */
export type Target = { readonly service: string } | { readonly ref: string };

export interface CallRequest {
  readonly target: Target;
  readonly member: string;
  /** The JSON arguments (checked by the providing side); the caller's Context never crosses, only its trace carrier. */
  readonly args: readonly unknown[];
  readonly trace: TraceCarrier;
}

/** `value` is absent for a void result; `ref` is set instead when the result crosses as a remote reference. */
export type CallResponse = { readonly value?: JsonValue; readonly ref?: string };

export interface CellSnapshot {
  readonly revision: number;
  readonly value: JsonValue;
}

/** One frame of a watch: the snapshot first, then updates and events, numbered without gaps. */
export type WatchFrame =
  | { readonly kind: 'snapshot'; readonly seq: number; readonly state: Readonly<Record<string, CellSnapshot>> }
  | {
      readonly kind: 'state';
      readonly seq: number;
      readonly cell: string;
      readonly revision: number;
      readonly value: JsonValue;
      readonly trace: TraceCarrier;
    }
  | {
      readonly kind: 'event';
      readonly seq: number;
      readonly stream: string;
      readonly event: JsonValue;
      readonly trace: TraceCarrier;
    };

/** Frames of the interaction stream a providing host sends to a client that handles interactions. */
export type InteractionFrame =
  | {
      readonly kind: 'request';
      readonly requestId: string;
      readonly interaction: string;
      readonly request: JsonValue;
      readonly trace: TraceCarrier;
    }
  | { readonly kind: 'cancel'; readonly requestId: string };

/** A client's answer to one interaction request. */
export type InteractionReply =
  | { readonly requestId: string; readonly response: JsonValue }
  | { readonly requestId: string; readonly error: RemoteErrorEnvelope };

export function targetLabel(target: Target): string {
  return 'service' in target ? target.service : 'ref';
}
