import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BACKGROUND_CONTEXT, withTelemetryContext } from './context';
import { extractTelemetryContext } from './extract-telemetry-context';
import { ROOT_TELEMETRY } from './otel-telemetry';
import type { TelemetryContext } from './telemetry-types';
import { installInMemoryTelemetry } from './testing';
import type { InMemoryTelemetry } from './testing';

let telemetry: InMemoryTelemetry;
beforeEach(() => {
  telemetry = installInMemoryTelemetry();
});
afterEach(() => {
  telemetry.uninstall();
});

const namedSpan = (name: string) => telemetry.spans().find((span) => span.name === name);

describe('startSpan', () => {
  it('starts a root span from ROOT_TELEMETRY', () => {
    ROOT_TELEMETRY.startSpan({ name: 'root' }, () => undefined);
    ROOT_TELEMETRY.startSpan({ name: 'another root' }, () => undefined);
    const [first, second] = telemetry.spans();
    expect(first?.parentSpanId).toBeUndefined();
    expect(second?.parentSpanId).toBeUndefined();
    expect(first?.traceId).not.toBe(second?.traceId);
  });

  it('ends the span when fn returns synchronously and passes its value through', () => {
    const result = ROOT_TELEMETRY.startSpan({ name: 'sync', kind: 'client', attributes: { a: 1 } }, (span) => {
      span.setAttribute('b', 'two');
      expect(telemetry.spans()).toHaveLength(0);
      return 42;
    });
    expect(result).toBe(42);
    expect(telemetry.spans()).toEqual([
      expect.objectContaining({ name: 'sync', kind: 'client', attributes: { a: 1, b: 'two' }, status: 'unset' }),
    ]);
  });

  it('ends the span only when a returned promise resolves', async () => {
    let resolve: (value: string) => void = () => undefined;
    const pending = ROOT_TELEMETRY.startSpan({ name: 'async' }, () => new Promise<string>((r) => (resolve = r)));
    await Promise.resolve();
    expect(telemetry.spans()).toHaveLength(0);
    resolve('done');
    await expect(pending).resolves.toBe('done');
    expect(namedSpan('async')?.status).toBe('unset');
  });

  it('records the exception and error status on a throw, and rethrows the same value', () => {
    const failure = new Error('boom');
    expect(() =>
      ROOT_TELEMETRY.startSpan({ name: 'throws' }, () => {
        throw failure;
      }),
    ).toThrow(failure);
    expect(namedSpan('throws')).toMatchObject({ status: 'error', events: ['exception'] });
  });

  it('records the exception and error status on a rejection, and rejects with the same value', async () => {
    const failure = { code: 'not an Error' };
    const pending = ROOT_TELEMETRY.startSpan({ name: 'rejects' }, () => Promise.reject(failure));
    await expect(pending).rejects.toBe(failure);
    expect(namedSpan('rejects')).toMatchObject({ status: 'error', events: ['exception'] });
  });

  it('parents spans started from a span, directly or through a context', () => {
    ROOT_TELEMETRY.startSpan({ name: 'ui' }, (ui) => {
      ui.startSpan({ name: 'direct' }, () => undefined);
      const context = withTelemetryContext(ui, BACKGROUND_CONTEXT);
      context.telemetryContext.startSpan({ name: 'via context' }, (inner) => {
        inner.recordException('warned');
      });
    });
    const ui = namedSpan('ui');
    expect(namedSpan('direct')).toMatchObject({ traceId: ui?.traceId, parentSpanId: ui?.spanId });
    expect(namedSpan('via context')).toMatchObject({
      traceId: ui?.traceId,
      parentSpanId: ui?.spanId,
      events: ['exception'],
      status: 'unset',
    });
  });

  it('exposes ids on spans and none on the root', () => {
    expect(ROOT_TELEMETRY.traceId).toBeUndefined();
    expect(ROOT_TELEMETRY.spanId).toBeUndefined();
    expect(ROOT_TELEMETRY.inject()).toEqual({});
    const ids = ROOT_TELEMETRY.startSpan({ name: 'ids' }, (span) => [span.traceId, span.spanId]);
    expect(ids).toEqual([namedSpan('ids')?.traceId, namedSpan('ids')?.spanId]);
  });
});

describe('startSpan with links', () => {
  it('links a new root span to the spans it follows from, in another trace, without parenting it', () => {
    const [first, second] = ['queued one', 'queued two'].map((name) =>
      ROOT_TELEMETRY.startSpan({ name }, (span) => span),
    );
    ROOT_TELEMETRY.startSpan({ name: 'run', links: [first as TelemetryContext, second as TelemetryContext] }, () => 0);
    const run = namedSpan('run');
    expect(run?.parentSpanId).toBeUndefined();
    expect(run?.links).toEqual([
      { traceId: first?.traceId, spanId: first?.spanId },
      { traceId: second?.traceId, spanId: second?.spanId },
    ]);
    expect(run?.traceId).not.toBe(first?.traceId);
  });

  it('leaves out a context with no span, such as the root or a malformed carrier', () => {
    ROOT_TELEMETRY.startSpan(
      { name: 'unlinked', links: [ROOT_TELEMETRY, extractTelemetryContext({ traceparent: 'x' })] },
      () => 0,
    );
    expect(namedSpan('unlinked')?.links).toEqual([]);
  });

  it('adds a link to a span learnt after the span started, before it ends', () => {
    const later = ROOT_TELEMETRY.startSpan({ name: 'later' }, (span) => span);
    ROOT_TELEMETRY.startSpan({ name: 'waiting' }, (span) => {
      span.addLink(later);
      span.addLink(ROOT_TELEMETRY);
    });
    expect(namedSpan('waiting')?.links).toEqual([{ traceId: later.traceId, spanId: later.spanId }]);
  });

  it('links to a span of another process, known only by its carrier', () => {
    const remote = extractTelemetryContext({ traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' });
    ROOT_TELEMETRY.startSpan({ name: 'started', links: [remote] }, () => 0);
    expect(namedSpan('started')?.links).toEqual([
      { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331' },
    ]);
  });
});

describe('installInMemoryTelemetry', () => {
  it('forgets recorded spans on reset', () => {
    ROOT_TELEMETRY.startSpan({ name: 'before reset' }, () => undefined);
    telemetry.reset();
    expect(telemetry.spans()).toEqual([]);
  });

  it('stops recording after uninstall', () => {
    telemetry.uninstall();
    ROOT_TELEMETRY.startSpan({ name: 'unrecorded' }, () => undefined);
    expect(telemetry.spans()).toEqual([]);
  });

  it('lets a later install replace an earlier one', () => {
    const later = installInMemoryTelemetry();
    telemetry.uninstall();
    ROOT_TELEMETRY.startSpan({ name: 'later' }, () => undefined);
    expect(later.spans().map((span) => span.name)).toEqual(['later']);
    expect(telemetry.spans()).toEqual([]);
    later.uninstall();
  });
});
