import { trace } from '@opentelemetry/api';
import { afterEach, describe, expect, it } from 'vitest';
// Imported (and ROOT_TELEMETRY built) before any provider is installed: export must still see its spans.
import { BACKGROUND_CONTEXT } from '@pi/context';
import { installTraceExport } from './install-trace-export';
import type { TraceExport } from './trace-export';
import { startOtlpReceiver, type OtlpReceiver } from './otlp-receiver';

function isRecordingGlobally(): boolean {
  const span = trace.getTracer('probe').startSpan('probe');
  span.end();
  return span.isRecording();
}

describe('installTraceExport', () => {
  const warnings: string[] = [];
  const warn = (line: string) => void warnings.push(line);
  let installed: TraceExport | undefined;
  let receiver: OtlpReceiver | undefined;

  afterEach(async () => {
    await installed?.shutdown();
    installed = undefined;
    await receiver?.close();
    receiver = undefined;
    warnings.length = 0;
    trace.disable();
  });

  it('installs nothing when no endpoint is configured', async () => {
    installed = await installTraceExport({ env: { OTEL_SERVICE_NAME: 'x' }, defaultServiceName: 'pi-test', warn });
    expect(installed).toBeUndefined();
    expect(isRecordingGlobally()).toBe(false);
    expect(warnings).toEqual([]);
  });

  it('refuses a bad endpoint with one warning line and installs nothing', async () => {
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: 'localhost:4318' };
    installed = await installTraceExport({ env, defaultServiceName: 'pi-test', warn });
    expect(installed).toBeUndefined();
    expect(isRecordingGlobally()).toBe(false);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^pi-test: trace export is off: OTEL_EXPORTER_OTLP_ENDPOINT is not an http\(s\) URL/);
  });

  it('installs nothing when OTEL_SDK_DISABLED is true', async () => {
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:1', OTEL_SDK_DISABLED: 'true' };
    installed = await installTraceExport({ env, defaultServiceName: 'pi-test', warn });
    expect(installed).toBeUndefined();
    expect(isRecordingGlobally()).toBe(false);
    expect(warnings).toEqual([]);
  });

  it('exports spans made through @pi/context to the endpoint, with OTEL_SERVICE_NAME as service.name', async () => {
    receiver = await startOtlpReceiver();
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_SERVICE_NAME: 'pi-under-test' };
    installed = await installTraceExport({ env, defaultServiceName: 'pi-test', warn });
    expect(installed).toBeDefined();

    const ids = BACKGROUND_CONTEXT.telemetryContext.startSpan({ name: 'outer' }, (outer) =>
      outer.startSpan({ name: 'inner', kind: 'client' }, (inner) => ({
        traceId: outer.traceId,
        outer: outer.spanId,
        inner: inner.spanId,
      })),
    );
    await installed?.flush();

    expect(receiver.spans()).toEqual([
      {
        serviceName: 'pi-under-test',
        traceId: ids.traceId,
        spanId: ids.inner,
        parentSpanId: ids.outer,
        name: 'inner',
        links: [],
      },
      {
        serviceName: 'pi-under-test',
        traceId: ids.traceId,
        spanId: ids.outer,
        parentSpanId: undefined,
        name: 'outer',
        links: [],
      },
    ]);
    expect(warnings).toEqual([]);
  });

  it("exports a span's links, as the receiver reads them", async () => {
    receiver = await startOtlpReceiver();
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint };
    installed = await installTraceExport({ env, defaultServiceName: 'pi-test', warn });
    const origin = BACKGROUND_CONTEXT.telemetryContext.startSpan({ name: 'origin' }, (span) => span);
    BACKGROUND_CONTEXT.telemetryContext.startSpan({ name: 'follower', links: [origin] }, () => undefined);
    await installed?.flush();

    const follower = receiver.spans().find((span) => span.name === 'follower');
    expect(follower?.links).toEqual([{ traceId: origin.traceId, spanId: origin.spanId }]);
    expect(follower?.traceId).not.toBe(origin.traceId);
  });

  it('names the service after the host when OTEL_SERVICE_NAME is unset, and sends the rest on shutdown', async () => {
    receiver = await startOtlpReceiver();
    const env = { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${receiver.endpoint}/v1/traces` };
    installed = await installTraceExport({ env, defaultServiceName: 'pi-test', warn });
    await BACKGROUND_CONTEXT.telemetryContext.startSpan({ name: 'async work' }, () => Promise.resolve('done'));
    await installed?.shutdown();

    expect(receiver.spans()).toMatchObject([{ serviceName: 'pi-test', name: 'async work' }]);
    expect(isRecordingGlobally()).toBe(false);
  });

  it('leaves an already registered tracer provider alone, with one warning', async () => {
    receiver = await startOtlpReceiver();
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint };
    const first = await installTraceExport({ env, defaultServiceName: 'first', warn });
    installed = await installTraceExport({ env, defaultServiceName: 'second', warn });
    expect(installed).toBeUndefined();
    expect(warnings).toEqual(['second: trace export is off: a tracer provider is already registered']);
    BACKGROUND_CONTEXT.telemetryContext.startSpan({ name: 'kept' }, () => 'done');
    await first?.shutdown();
    expect(receiver.spans()).toMatchObject([{ serviceName: 'first', name: 'kept' }]);
  });
});
