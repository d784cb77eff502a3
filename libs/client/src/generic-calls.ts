import { err, ok, type Result } from 'neverthrow';
import {
  RemoteError,
  quoteForError,
  type HostDescription,
  type MethodDescription,
  type ServiceDescription,
} from '@pi/remote';

/**
 * Checks of a call or watch by name against a host's description, before anything is sent. An unknown name is
 * answered with what does exist (in the message and in `data`), so a tool or a person can correct it. Argument
 * values are checked by the host against its contract (the description's JSON Schemas say what it expects).
 */
export function findService(description: HostDescription, service: string): Result<ServiceDescription, RemoteError> {
  const found = description.services.find((candidate) => candidate.id === service);
  if (found !== undefined) return ok(found);
  const services = description.services.map((candidate) => candidate.id);
  return err(
    new RemoteError(
      'unknown_service',
      `Unknown service ${quoteForError(service)}; this host serves: ${listed(services)}`,
      { services },
    ),
  );
}

export function findMethod(
  description: HostDescription,
  service: string,
  method: string,
): Result<MethodDescription, RemoteError> {
  return findService(description, service).andThen((found) => {
    const spec = Object.hasOwn(found.methods, method) ? found.methods[method] : undefined;
    if (spec !== undefined) return ok(spec);
    const methods = Object.keys(found.methods);
    return err(
      new RemoteError(
        'unknown_member',
        `Unknown method ${quoteForError(method)} of ${service}; it has: ${listed(methods)}`,
        { service, methods },
      ),
    );
  });
}

/** A call's arguments by count: arguments are positional and none is optional (docs/decisions.md). */
export function checkArity(service: string, method: string, spec: MethodDescription, args: readonly unknown[]) {
  return args.length === spec.args.length
    ? ok(undefined)
    : err(
        new RemoteError(
          'invalid_argument',
          `${service}.${method} takes ${spec.args.length} argument(s), got ${args.length}`,
          { expected: spec.args.length, got: args.length },
        ),
      );
}

function listed(names: readonly string[]): string {
  return names.length === 0 ? '(nothing)' : names.join(', ');
}
