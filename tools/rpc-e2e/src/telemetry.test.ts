import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  BACKGROUND_CONTEXT,
  type Context,
  type TraceCarrier,
  withAbortSignal,
  withTelemetryContext,
} from '@pi/context';
import { installInMemoryTelemetry, type FinishedSpan, type InMemoryTelemetry } from '@pi/context/testing';
import { RemoteError, defineRemoteService } from '@pi/remote';
import {
  TRANSPORTS,
  openRawChannel,
  remoteErrorOf,
  serveHost,
  startRpcFixture,
  type HostTransport,
  type RpcFixture,
} from '@pi/test-support';

/** A service that opens its own span under the context it was given, as the spec's refresh does. */
interface TracedService {
  work(label: string, context: Context): Promise<string>;
  refuse(context: Context): Promise<void>;
}

const Traced = defineRemoteService<TracedService>('traced', {
  methods: { work: { args: [z.string()], result: z.string() }, refuse: { args: [], result: z.void() } },
  state: {},
  events: {},
});

const traced: TracedService = {
  work: (label, context) =>
    context.telemetryContext.startSpan({ name: 'plugin.traced.work' }, async (span) => {
      span.setAttribute('label', label);
      return `worked ${label}`;
    }),
  async refuse() {
    throw new RemoteError('not_allowed', 'Refused');
  },
};

function byName(spans: readonly FinishedSpan[], name: string): FinishedSpan {
  const found = spans.filter((span) => span.name === name);
  expect(found, `exactly one span named ${name}`).toHaveLength(1);
  return found[0] as FinishedSpan;
}

describe.each(TRANSPORTS)('telemetry over %s', (kind) => {
  let telemetry: InMemoryTelemetry;
  let fixture: RpcFixture;
  let served: HostTransport | undefined;
  beforeEach(() => {
    telemetry = installInMemoryTelemetry();
  });
  afterEach(async () => {
    await served?.close();
    served = undefined;
    await fixture.close();
    telemetry.uninstall();
  });

  async function connectTraced() {
    fixture = await startRpcFixture(kind, { provide: (registry) => registry.provide(Traced, traced) });
    return (await fixture.connect()).use(Traced);
  }

  it('one trace runs from the client span through rpc.client and rpc.server to the service span', async () => {
    const remote = await connectTraced();
    telemetry.reset();
    await BACKGROUND_CONTEXT.telemetryContext.startSpan({ name: 'ui.traced.work' }, (span) =>
      remote.work('x', withTelemetryContext(span, BACKGROUND_CONTEXT)),
    );

    const spans = telemetry.spans();
    const ui = byName(spans, 'ui.traced.work');
    const client = byName(spans, 'rpc.client traced.work');
    const server = byName(spans, 'rpc.server traced.work');
    const service = byName(spans, 'plugin.traced.work');
    expect(new Set([ui, client, server, service].map((span) => span.traceId)).size).toBe(1);
    expect(ui.parentSpanId).toBeUndefined();
    expect(client).toMatchObject({ kind: 'client', parentSpanId: ui.spanId });
    expect(server).toMatchObject({ kind: 'server', parentSpanId: client.spanId });
    expect(service).toMatchObject({ parentSpanId: server.spanId, attributes: { label: 'x' } });
  });

  it('concurrent calls keep separate parents', async () => {
    const remote = await connectTraced();
    telemetry.reset();
    const root = BACKGROUND_CONTEXT.telemetryContext;
    await Promise.all(
      ['a', 'b'].map((label) =>
        root.startSpan({ name: `ui.${label}` }, (span) =>
          remote.work(label, withTelemetryContext(span, BACKGROUND_CONTEXT)),
        ),
      ),
    );
    const spans = telemetry.spans();
    for (const label of ['a', 'b']) {
      const ui = byName(spans, `ui.${label}`);
      const service = spans.find((span) => span.name === 'plugin.traced.work' && span.attributes['label'] === label);
      expect(service?.traceId).toBe(ui.traceId);
    }
    expect(byName(spans, 'ui.a').traceId).not.toBe(byName(spans, 'ui.b').traceId);
  });

  it('a failed call marks both rpc spans as errors in the caller trace', async () => {
    const remote = await connectTraced();
    telemetry.reset();
    const error = await BACKGROUND_CONTEXT.telemetryContext.startSpan({ name: 'ui.refuse' }, (span) =>
      remoteErrorOf(remote.refuse(withTelemetryContext(span, BACKGROUND_CONTEXT))),
    );
    expect(error.code).toBe('not_allowed');
    const spans = telemetry.spans();
    expect(byName(spans, 'rpc.client traced.refuse').status).toBe('error');
    expect(byName(spans, 'rpc.server traced.refuse')).toMatchObject({
      status: 'error',
      traceId: byName(spans, 'ui.refuse').traceId,
    });
  });

  it('a call without a telemetry parent starts a fresh trace on the server, not a shared one', async () => {
    const remote = await connectTraced();
    telemetry.reset();
    await remote.work('one', BACKGROUND_CONTEXT);
    await remote.work('two', withAbortSignal(new AbortController().signal, BACKGROUND_CONTEXT));
    const servers = telemetry.spans().filter((span) => span.name === 'rpc.server traced.work');
    expect(servers).toHaveLength(2);
    expect(servers[0]?.traceId).not.toBe(servers[1]?.traceId);
  });

  it('a forged or malformed trace carrier cannot break the call', async () => {
    await connectTraced();
    served = await serveHost(kind, fixture.host);
    using raw = await openRawChannel(served.socketFactory);
    telemetry.reset();
    for (const t of [
      { traceparent: 'garbage' },
      { traceparent: '00-' + '0'.repeat(32) + '-' + '0'.repeat(16) + '-01' },
      { tracestate: 'x=1' },
    ]) {
      expect(await raw.mutate('traced.work', { a: ['raw'], c: '1', t })).toEqual({ value: 'worked raw' });
    }
    const servers = telemetry.spans().filter((span) => span.name === 'rpc.server traced.work');
    expect(servers).toHaveLength(3);
    for (const span of servers) expect(span.traceId).not.toBe('0'.repeat(32));
  });
});

/** What the service saw of its call's telemetry: the trace id (none when untraced) and what it would inject. */
interface SeenTelemetry {
  readonly traceId: string | null;
  readonly carrier: TraceCarrier;
}

interface ProbedTelemetryService {
  look(context: Context): Promise<SeenTelemetry>;
}

const ProbedTelemetry = defineRemoteService<ProbedTelemetryService>('probed-telemetry', {
  methods: {
    look: {
      args: [],
      result: z.object({
        traceId: z.string().nullable(),
        carrier: z.object({ traceparent: z.string().optional(), tracestate: z.string().optional() }),
      }),
    },
  },
  state: {},
  events: {},
});

describe.each(TRANSPORTS)('calls with no tracer provider over %s', (kind) => {
  let fixture: RpcFixture;
  let served: HostTransport | undefined;
  afterEach(async () => {
    await served?.close();
    served = undefined;
    await fixture.close();
  });

  async function connectProbed() {
    fixture = await startRpcFixture(kind, {
      provide: (registry) =>
        registry.provide(ProbedTelemetry, {
          look: async (context) => ({
            traceId: context.telemetryContext.traceId ?? null,
            carrier: context.telemetryContext.inject(),
          }),
        }),
    });
    return (await fixture.connect()).use(ProbedTelemetry);
  }

  it('go untraced, and the next call after a provider is installed is traced end to end', async () => {
    const remote = await connectProbed();
    expect(await remote.look(BACKGROUND_CONTEXT)).toEqual({ traceId: null, carrier: {} });

    const telemetry = installInMemoryTelemetry();
    try {
      const seen = await remote.look(BACKGROUND_CONTEXT);
      const server = byName(telemetry.spans(), 'rpc.server probed-telemetry.look');
      expect(seen.traceId).toBe(server.traceId);
      expect(byName(telemetry.spans(), 'rpc.client probed-telemetry.look').traceId).toBe(server.traceId);
    } finally {
      telemetry.uninstall();
    }
    expect(await remote.look(BACKGROUND_CONTEXT)).toEqual({ traceId: null, carrier: {} });
  });

  it('still carry a parent that came over the wire into the service context', async () => {
    await connectProbed();
    served = await serveHost(kind, fixture.host);
    using raw = await openRawChannel(served.socketFactory);
    const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    const seen = (await raw.mutate('probed-telemetry.look', { a: [], c: '1', t: { traceparent } })) as {
      value: SeenTelemetry;
    };
    expect(seen.value.traceId).toBe('0af7651916cd43dd8448eb211c80319c');
    expect(seen.value.carrier).toEqual({ traceparent: expect.stringContaining('0af7651916cd43dd8448eb211c80319c') });
  });
});
