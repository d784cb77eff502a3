import { extractTelemetryContext } from './extract-telemetry-context';
import type { TelemetryContext, TraceCarrier } from './telemetry-types';

/**
 * The environment variables that carry a span to a child process, as OpenTelemetry names them ("environment
 * variables as context propagation carriers").
 */
const VARIABLES = { traceparent: 'TRACEPARENT', tracestate: 'TRACESTATE' } as const;

/** A child's environment carrying `carrier`, and no carrier this process was itself given. */
export function withEnvironmentCarrier(env: NodeJS.ProcessEnv, carrier: TraceCarrier): NodeJS.ProcessEnv {
  const { [VARIABLES.traceparent]: _parent, [VARIABLES.tracestate]: _state, ...rest } = env;
  return {
    ...rest,
    ...(carrier.traceparent === undefined ? {} : { [VARIABLES.traceparent]: carrier.traceparent }),
    ...(carrier.tracestate === undefined ? {} : { [VARIABLES.tracestate]: carrier.tracestate }),
  };
}

/**
 * The span this process was started under (ROOT_TELEMETRY's kind when none, or a malformed one), taken out of `env`
 * so that the processes this one starts in turn do not claim it too.
 */
export function takeEnvironmentCarrier(env: NodeJS.ProcessEnv): TelemetryContext {
  const carrier: TraceCarrier = {};
  const traceparent = env[VARIABLES.traceparent];
  const tracestate = env[VARIABLES.tracestate];
  if (traceparent !== undefined) carrier.traceparent = traceparent;
  if (tracestate !== undefined) carrier.tracestate = tracestate;
  delete env[VARIABLES.traceparent];
  delete env[VARIABLES.tracestate];
  return extractTelemetryContext(carrier);
}
