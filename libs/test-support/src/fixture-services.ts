import { z } from 'zod';
import { thinkingLevelSchema, type ThinkingLevel } from '@pi/agent-contract';
import type { Context } from '@pi/context';
import {
  defineInteraction,
  defineLocalService,
  defineRemoteService,
  remote,
  type ObjectExposure,
  type RemoteEvents,
  type RemoteState,
} from '@pi/remote';

/** The spec's models example, reduced: state, a validated argument, a void method and a cancellable one. */
export interface ModelRef {
  provider: string;
  modelId: string;
}

export interface CatalogState {
  selected: ModelRef | null;
  thinkingLevel: ThinkingLevel;
  refresh: 'idle' | 'refreshing' | 'done';
}

export type CatalogEvent = { type: 'selected'; model: ModelRef } | { type: 'refreshed'; count: number };

export interface CatalogService {
  readonly state: RemoteState<CatalogState>;
  readonly events: RemoteEvents<CatalogEvent>;
  select(model: ModelRef, context: Context): Promise<void>;
  cycleThinking(context: Context): Promise<void>;
  refresh(context: Context): Promise<number>;
}

const modelRef = z.object({ provider: z.string().min(1), modelId: z.string().min(1) });

export const Catalog = defineRemoteService<CatalogService>('catalog', {
  methods: {
    select: { args: [modelRef], result: z.void() },
    cycleThinking: { args: [], result: z.void() },
    refresh: { args: [], result: z.number().int() },
  },
  state: {
    state: z.object({
      selected: modelRef.nullable(),
      thinkingLevel: thinkingLevelSchema,
      refresh: z.enum(['idle', 'refreshing', 'done']),
    }),
  },
  events: {
    events: z.discriminatedUnion('type', [
      z.object({ type: z.literal('selected'), model: modelRef }),
      z.object({ type: z.literal('refreshed'), count: z.number() }),
    ]),
  },
});

/** A service for probing the machinery itself: echo, failures, waiting on the call's signal, caller identity. */
export interface ProbeService {
  echo(value: unknown, context: Context): Promise<unknown>;
  nothing(context: Context): Promise<void>;
  fail(code: string, message: string, context: Context): Promise<void>;
  crash(message: string, context: Context): Promise<void>;
  /** Resolves only when the call's context is aborted; reports that it saw the abort. */
  block(label: string, context: Context): Promise<string>;
  whoAmI(context: Context): Promise<{ clientId: string | null; principal: string | null }>;
  /** Returns a value that breaks its own result schema. */
  badResult(context: Context): Promise<number>;
}

export const Probe = defineRemoteService<ProbeService>('probe', {
  methods: {
    echo: { args: [z.unknown()], result: z.unknown() },
    nothing: { args: [], result: z.void() },
    fail: { args: [z.string(), z.string()], result: z.void() },
    crash: { args: [z.string()], result: z.void() },
    block: { args: [z.string()], result: z.string() },
    whoAmI: { args: [], result: z.object({ clientId: z.string().nullable(), principal: z.string().nullable() }) },
    badResult: { args: [], result: z.number() },
  },
  state: {},
  events: {},
});

/** The spec's job example: `start` returns a remote reference to a job with its own state. */
export interface IndexProgress {
  status: 'running' | 'done' | 'cancelled';
  indexed: number;
}

export interface IndexJob {
  readonly progress: RemoteState<IndexProgress>;
  wait(context: Context): Promise<IndexProgress>;
  cancel(context: Context): Promise<void>;
  advance(count: number, context: Context): Promise<void>;
}

export interface IndexService {
  start(root: string, context: Context): Promise<IndexJob>;
}

const indexProgress = z.object({ status: z.enum(['running', 'done', 'cancelled']), indexed: z.number().int() });

export const IndexJobExposure: ObjectExposure<IndexJob> = {
  methods: {
    wait: { args: [], result: indexProgress },
    cancel: { args: [], result: z.void() },
    advance: { args: [z.number().int().min(0)], result: z.void() },
  },
  state: { progress: indexProgress },
  events: {},
};

export const Index = defineRemoteService<IndexService>('index', {
  methods: { start: { args: [z.string().min(1)], result: remote(IndexJobExposure) } },
  state: {},
  events: {},
});

/** A local-only service: it may hold secrets and functions, and no peer can ever reach it. */
export interface VaultService {
  secret(): string;
}

export const Vault = defineLocalService<VaultService>('vault');

export interface AskRequest {
  question: string;
  options: string[];
}

export type AskResponse = { outcome: 'selected'; index: number } | { outcome: 'cancelled' };

export const Ask = defineInteraction<AskRequest, AskResponse>('ask', {
  request: z.object({ question: z.string(), options: z.array(z.string()) }),
  response: z.discriminatedUnion('outcome', [
    z.object({ outcome: z.literal('selected'), index: z.number().int().min(0) }),
    z.object({ outcome: z.literal('cancelled') }),
  ]),
});
