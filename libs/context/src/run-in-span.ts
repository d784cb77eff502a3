import { SpanStatusCode } from '@opentelemetry/api';
import type { Exception, Span as OtelSpan } from '@opentelemetry/api';

/** Runs body, ending span on sync return or when a returned promise settles; failures mark it and rethrow. */
export function runInSpan<R>(span: OtelSpan, body: () => R): R {
  // A non-recording span (no tracer provider installed, or sampled out) has nothing to end or mark, so the
  // result is handed back as is: no extra promise on every call when tracing is off.
  if (!span.isRecording()) return body();
  let result: R;
  try {
    result = body();
  } catch (error) {
    failSpan(span, error);
    span.end();
    throw error;
  }
  if (!isThenable(result)) {
    span.end();
    return result;
  }
  const settled = Promise.resolve(result).then(
    (value) => {
      span.end();
      return value;
    },
    (error: unknown) => {
      failSpan(span, error);
      span.end();
      throw error;
    },
  );
  // The caller's R is a promise type here, and `settled` resolves to the same value.
  return settled as unknown as R;
}

function failSpan(span: OtelSpan, error: unknown): void {
  const exception = toException(error);
  span.recordException(exception);
  span.setStatus({
    code: SpanStatusCode.ERROR,
    message: typeof exception === 'string' ? exception : exception.message,
  });
}

/** Turns any thrown value into an OTel exception without ever throwing itself (toString may be hostile). */
export function toException(error: unknown): Exception {
  if (error instanceof Error) return error;
  if (typeof error === 'string') return error;
  try {
    return String(error);
  } catch {
    return 'unprintable thrown value';
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}
