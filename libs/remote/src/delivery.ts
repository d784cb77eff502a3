import {
  BACKGROUND_CONTEXT,
  type Context,
  type TraceCarrier,
  extractTelemetryContext,
  withTelemetryContext,
} from '@pi/context';

/**
 * The context a state or event listener runs under: a fresh background context whose telemetry parent is the
 * source of the change. The writer's own context (its signal, its values) is never retained or handed on.
 */
export function deliveryContext(carrier: TraceCarrier | undefined): Context {
  // The carrier may come off the wire in any shape; extraction validates it and falls back to a root.
  const telemetry = extractTelemetryContext(carrier);
  return telemetry.traceId === undefined ? BACKGROUND_CONTEXT : withTelemetryContext(telemetry, BACKGROUND_CONTEXT);
}

/**
 * Runs one listener isolated, as every layer runs the listeners it calls back: one that throws is reported as a
 * `PI_LISTENER_ERROR` process warning, "<failure>: <its message>", and its caller goes on with the others.
 */
export function runListener(run: () => void, failure = 'A state or event listener threw'): void {
  try {
    run();
  } catch (error) {
    process.emitWarning(`${failure}: ${error instanceof Error ? error.message : String(error)}`, {
      code: 'PI_LISTENER_ERROR',
    });
  }
}

/**
 * Runs deliveries one at a time, in the order they were published: a listener that writes again while it
 * is being told about a change queues the next delivery instead of overtaking the one in progress.
 */
export function serialDelivery(): (deliver: () => void) => void {
  const queue: Array<() => void> = [];
  let draining = false;
  return (deliver) => {
    queue.push(deliver);
    if (draining) return;
    draining = true;
    try {
      for (let next = queue.shift(); next !== undefined; next = queue.shift()) next();
    } finally {
      draining = false;
    }
  };
}
