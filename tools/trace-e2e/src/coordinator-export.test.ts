import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BACKGROUND_CONTEXT, withTelemetryContext } from '@pi/context';
import { SessionPicker, type SessionPickerService } from '@pi/session-directory';
import { loadedModules, moduleLogEnvironment, nextValue } from '@pi/test-support';
import { installTraceExport, type TraceExport } from '@pi/trace-export';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '@pi/trace-export/testing';
import { startCoordinatorProcess, type CoordinatorProcess } from './coordinator-process';

/** Three real processes and two session starts, on a CI machine that runs other suites at once. */
const TEST_TIMEOUT_MS = 180_000;
/** Modules only the export installs: the SDK, its resources and the OTLP exporter. */
const SDK_MODULE = /\/@opentelemetry\/(sdk-trace|resources|exporter-trace-otlp-http|otlp-)/;
const CLIENT_SERVICE = 'trace-e2e-client';

function one(spans: readonly ReceivedSpan[], name: string): ReceivedSpan {
  const found = spans.filter((span) => span.name === name);
  expect(found, `exactly one span named ${name}`).toHaveLength(1);
  return found[0] as ReceivedSpan;
}

/** The picker of the coordinator's first session in its project, as a presentation of that session uses it. */
async function pickerOfNewSession(coordinator: CoordinatorProcess): Promise<SessionPickerService> {
  const created = await coordinator.createSession('the session the client attaches to');
  const client = await coordinator.connectToSession(created.sessionId);
  const picker = await client.use(SessionPicker);
  // Its list comes from the coordinator's directory: once it holds this session, the session reached upstream.
  await nextValue(picker.state, (state) => state.upstream === 'connected' && state.sessions.some((s) => s.isCurrent));
  return picker;
}

/** `picker.create` inside the presentation's own span; resolves with the trace id (undefined: nothing records). */
function createUnderClientSpan(picker: SessionPickerService): Promise<string | undefined> {
  return BACKGROUND_CONTEXT.telemetryContext.startSpan({ name: 'ui.sessions.create' }, async (span) => {
    await picker.create({ title: 'made from the picker' }, withTelemetryContext(span, BACKGROUND_CONTEXT));
    return span.traceId;
  });
}

describe('a coordinator and its sessions with OTEL_EXPORTER_OTLP_ENDPOINT', () => {
  let clientExport: TraceExport | undefined;
  afterEach(async () => {
    await clientExport?.shutdown();
    clientExport = undefined;
  });

  /** The test process exports its own spans to the receiver, as a presentation would. */
  async function exportClientSpans(receiver: OtlpReceiver): Promise<void> {
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_SERVICE_NAME: CLIENT_SERVICE };
    clientExport = await installTraceExport({ env, defaultServiceName: 'trace-e2e' });
  }

  it(
    "puts a presentation's picker call, the session's directory call and the coordinator's handling in one trace",
    async () => {
      await using receiver = await startOtlpReceiver();
      await exportClientSpans(receiver);
      // The sessions inherit the coordinator's environment. No scheduled batch before the end: every span of the
      // two daemons can only arrive through the flush on stop.
      await using coordinator = await startCoordinatorProcess({
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
        OTEL_BSP_SCHEDULE_DELAY: '600000',
      });
      const picker = await pickerOfNewSession(coordinator);

      const traceId = await createUnderClientSpan(picker);
      expect(traceId).toBeDefined();
      await clientExport?.flush();
      expect(await coordinator.stop(), coordinator.output()).toEqual({ code: 0, signal: null });

      const trace = receiver.spans().filter((span) => span.traceId === traceId);
      const chain = [
        one(trace, 'ui.sessions.create'),
        one(trace, 'rpc.client session-picker.create'),
        one(trace, 'rpc.server session-picker.create'),
        one(trace, 'rpc.client session-directory.create'),
        one(trace, 'rpc.server session-directory.create'),
      ];
      expect(chain.map((span) => span.serviceName)).toEqual([
        CLIENT_SERVICE,
        CLIENT_SERVICE,
        'pi-session',
        'pi-session',
        'pi-coordinator',
      ]);
      expect(chain[0]?.parentSpanId).toBeUndefined();
      for (const [index, span] of chain.entries()) {
        if (index > 0) expect(span.parentSpanId, span.name).toBe(chain[index - 1]?.spanId);
      }

      // The coordinator spawned the picker's session under the directory call; that session's startup, a trace of
      // its own, links to the spawn. The test's own session (created outside any span) is linked the same way.
      const spawn = one(trace, 'session.spawn');
      expect(spawn).toMatchObject({ serviceName: 'pi-coordinator', parentSpanId: chain[4]?.spanId });
      const spawns = receiver.spans().filter((span) => span.name === 'session.spawn');
      const startups = receiver.spans().filter((span) => span.name === 'session.start');
      expect(spawns).toHaveLength(2);
      expect(startups.map((startup) => startup.serviceName)).toEqual(['pi-session', 'pi-session']);
      for (const startup of startups) {
        expect(startup.parentSpanId).toBeUndefined();
        expect(startup.links).toHaveLength(1);
      }
      const linked = startups.map((startup) => startup.links[0]?.spanId).sort();
      expect(linked).toEqual(spawns.map((span) => span.spanId).sort());
      expect(startups.find((startup) => startup.links[0]?.spanId === spawn.spanId)?.traceId).not.toBe(traceId);
      // And each spawn links back into its session's startup trace: to the first presence report, made within it.
      for (const spawned of spawns) {
        const startup = startups.find((candidate) => candidate.links[0]?.spanId === spawned.spanId);
        expect(spawned.links.map((link) => link.traceId)).toEqual([startup?.traceId]);
      }
    },
    TEST_TIMEOUT_MS,
  );
});

describe('a coordinator and its sessions without OTEL_* variables', () => {
  let clientExport: TraceExport | undefined;
  const folders: string[] = [];
  afterEach(async () => {
    await clientExport?.shutdown();
    clientExport = undefined;
    await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
  });

  it(
    'send nothing and load no SDK module, even when the calls they serve carry a sampled trace',
    async () => {
      await using receiver = await startOtlpReceiver();
      // Only the test process exports: its carriers reach the session and the coordinator with a sampled parent.
      const env = { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_SERVICE_NAME: CLIENT_SERVICE };
      clientExport = await installTraceExport({ env, defaultServiceName: 'trace-e2e' });
      const folder = await mkdtemp(join(tmpdir(), 'pitc-log-'));
      folders.push(folder);
      const log = join(folder, 'modules.log');
      // The module log goes through NODE_OPTIONS, which the sessions inherit: one file for all three daemons. They
      // run their bundles, as `npm start` does; the log reads each chunk loaded as the modules it holds.
      await using coordinator = await startCoordinatorProcess(moduleLogEnvironment(log, {}, { bundled: true }));
      const picker = await pickerOfNewSession(coordinator);

      const traceId = await createUnderClientSpan(picker);
      await clientExport?.flush();
      expect(await coordinator.stop(), coordinator.output()).toEqual({ code: 0, signal: null });

      // The receiver works (the client's spans of that trace arrived), and nothing else ever reached it.
      expect(
        receiver
          .spans()
          .filter((span) => span.traceId === traceId)
          .map((span) => span.name),
      ).toEqual(expect.arrayContaining(['ui.sessions.create', 'rpc.client session-picker.create']));
      expect(receiver.spans().filter((span) => span.serviceName !== CLIENT_SERVICE)).toEqual([]);
      const modules = await loadedModules(log);
      expect(modules.some((module) => module.includes('/apps/coordinator/src/main.ts'))).toBe(true);
      expect(modules.some((module) => module.includes('/apps/session/src/main.ts'))).toBe(true);
      expect(modules.filter((module) => SDK_MODULE.test(module))).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );
});
