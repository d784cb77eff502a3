import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { connect } from '@pi/client';
import { BACKGROUND_CONTEXT, withTelemetryContext } from '@pi/context';
import { loadedModules, moduleLogEnvironment } from '@pi/test-support';
import { installTraceExport, type TraceExport } from '@pi/trace-export';
import { startOtlpReceiver, type ReceivedSpan } from '@pi/trace-export/testing';
import { startSessionProcess } from './session-process';

/** Modules only the export installs: the SDK, its resources and the OTLP exporter. */
const SDK_MODULE = /\/@opentelemetry\/(sdk-trace|resources|exporter-trace-otlp-http|otlp-)/;

function one(spans: readonly ReceivedSpan[], name: string): ReceivedSpan {
  const found = spans.filter((span) => span.name === name);
  expect(found, `exactly one span named ${name}`).toHaveLength(1);
  return found[0] as ReceivedSpan;
}

describe('a pi-session with OTEL_EXPORTER_OTLP_ENDPOINT', () => {
  let clientExport: TraceExport | undefined;
  afterEach(async () => {
    await clientExport?.shutdown();
    clientExport = undefined;
  });

  it("exports its rpc.server span into the caller's trace, parented to the client's rpc.client span", async () => {
    await using receiver = await startOtlpReceiver();
    // The test process exports its own spans to the same receiver, as a client host would.
    const clientEnv = { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_SERVICE_NAME: 'trace-e2e-client' };
    clientExport = await installTraceExport({ env: clientEnv, defaultServiceName: 'trace-e2e' });
    await using session = await startSessionProcess({
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
      OTEL_SERVICE_NAME: 'pi-session-under-test',
      // No scheduled batch before the end: the session's spans can only arrive through the flush on stop.
      OTEL_BSP_SCHEDULE_DELAY: '600000',
    });
    const client = (await connect({ cwd: session.cwd, dataDir: session.dataDir, reconnect: false }))._unsafeUnwrap();

    const traceId = await BACKGROUND_CONTEXT.telemetryContext.startSpan({ name: 'trace-e2e.refresh' }, async (span) => {
      await client.call('models', 'refresh', [], withTelemetryContext(span, BACKGROUND_CONTEXT));
      return span.traceId;
    });
    client.close();
    await clientExport?.flush();
    await session.stop();

    const spans = receiver.spans();
    const root = one(spans, 'trace-e2e.refresh');
    const rpcClient = one(spans, 'rpc.client models.refresh');
    const rpcServer = one(spans, 'rpc.server models.refresh');
    expect(root).toMatchObject({ serviceName: 'trace-e2e-client', traceId, parentSpanId: undefined });
    expect(rpcClient).toMatchObject({ serviceName: 'trace-e2e-client', traceId, parentSpanId: root.spanId });
    expect(rpcServer).toMatchObject({ serviceName: 'pi-session-under-test', traceId, parentSpanId: rpcClient.spanId });
    expect(session.stderr()).toBe('');
  });

  it('starts anyway with one warning line when the endpoint is not a URL', async () => {
    await using session = await startSessionProcess({ OTEL_EXPORTER_OTLP_ENDPOINT: 'localhost:4318' });
    await session.stop();
    expect(session.stderr()).toBe(
      'pi-session: trace export is off: OTEL_EXPORTER_OTLP_ENDPOINT is not an http(s) URL: "localhost:4318"\n',
    );
  });
});

describe('which modules a pi-session loads', () => {
  const folders: string[] = [];
  afterEach(async () => {
    await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
  });

  async function modulesLoaded(env: NodeJS.ProcessEnv): Promise<string[]> {
    const folder = await mkdtemp(join(tmpdir(), 'pit-log-'));
    folders.push(folder);
    const log = join(folder, 'modules.log');
    // Its bundle, as `npm start` runs it: the SDK is in a chunk of its own, loaded only with an endpoint.
    const session = await startSessionProcess({ ...env, ...moduleLogEnvironment(log, {}, { bundled: true }) });
    await session.stop();
    return loadedModules(log);
  }

  it('loads no OpenTelemetry SDK module when no endpoint is set, and loads it when one is', async () => {
    const unset = await modulesLoaded({});
    expect(unset.length).toBeGreaterThan(0);
    expect(unset.filter((module) => SDK_MODULE.test(module))).toEqual([]);

    const set = await modulesLoaded({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' });
    expect(set.some((module) => module.includes('/@opentelemetry/exporter-trace-otlp-http/'))).toBe(true);
  });
});
