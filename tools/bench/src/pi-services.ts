import { z } from 'zod';
import type { Context } from '@pi/context';
import { defineRemoteService, type RemoteState } from '@pi/remote';
import type { BulkValue, CallPayload, FanoutValue } from './payload';

/** The contracts the pi server provides; schemas are real (not `unknown`) since the product validates. */
const callPayload = z.object({ id: z.number(), text: z.string(), n: z.number() });

export interface BenchEchoService {
  echo(value: CallPayload, context: Context): Promise<CallPayload>;
}

export const BenchEcho = defineRemoteService<BenchEchoService>('bench-echo', {
  methods: { echo: { args: [callPayload], result: callPayload } },
  state: {},
  events: {},
});

export interface BenchFanoutService {
  readonly cell: RemoteState<FanoutValue>;
}

export const BenchFanout = defineRemoteService<BenchFanoutService>('bench-fanout', {
  methods: {},
  state: { cell: z.object({ round: z.number(), blob: z.string() }) },
  events: {},
});

export interface BenchBulkService {
  readonly bulk: RemoteState<BulkValue>;
}

export const BenchBulk = defineRemoteService<BenchBulkService>('bench-bulk', {
  methods: {},
  state: { bulk: z.object({ files: z.array(z.object({ path: z.string(), text: z.string() })) }) },
  events: {},
});
