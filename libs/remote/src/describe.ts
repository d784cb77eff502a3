import { z } from 'zod';
import { checkJson } from '@pi/json';
import type {
  ExposureDescription,
  HostDescription,
  InteractionDescription,
  JsonSchema,
  MethodDescription,
  ResultDescription,
  ServiceDescription,
} from './description';
import { JSON_SCHEMA_DIALECT } from './description';
import { isRemoteResult, type AnyExposure, type Schema } from './exposure';
import type { ServiceRegistry } from './service-registry';
import type { Interaction } from './tokens';

/** Which side of a schema to describe: what a caller may send (`input`), or what it receives (`output`). */
type Direction = 'input' | 'output';

/**
 * A zod schema as JSON Schema. What JSON Schema cannot express (a refinement, a transform's code) is left out, so
 * the schema may accept more than the host will; the host's own check stays the authority.
 */
export function toJsonSchema(schema: Schema<unknown>, io: Direction): JsonSchema {
  let converted: Record<string, unknown>;
  try {
    converted = z.toJSONSchema(schema, { io, unrepresentable: 'any', cycles: 'ref', reused: 'inline' });
  } catch {
    return {};
  }
  const { $schema: _dialect, ...rest } = converted;
  // Round-trip: drops any undefined member, so what is checked below is exactly what goes on the wire.
  const json = checkJson(JSON.parse(JSON.stringify(rest)));
  return json.isOk() ? (json.value as JsonSchema) : {};
}

/**
 * An exposure as data, members in declaration order; a remote result's exposure is described in place (null where
 * it recurs).
 */
export function describeExposure(
  exposure: AnyExposure,
  enclosing: ReadonlySet<AnyExposure> = new Set(),
): ExposureDescription {
  const inside = new Set([...enclosing, exposure]);
  const methods: Record<string, MethodDescription> = {};
  for (const [name, method] of Object.entries(exposure.methods)) {
    methods[name] = {
      args: method.args.map((schema) => toJsonSchema(schema, 'input')),
      result: describeResult(method.result, inside),
    };
  }
  return {
    methods,
    state: mapValues(exposure.state, (schema) => toJsonSchema(schema, 'output')),
    events: mapValues(exposure.events, (schema) => toJsonSchema(schema, 'output')),
  };
}

function describeResult(
  result: AnyExposure['methods'][string]['result'],
  inside: ReadonlySet<AnyExposure>,
): ResultDescription {
  if (isRemoteResult(result)) {
    const exposure = result.exposure as unknown as AnyExposure;
    return { kind: 'remote', exposure: inside.has(exposure) ? null : describeExposure(exposure, inside) };
  }
  const type = result._zod.def.type;
  return type === 'void' || type === 'undefined'
    ? { kind: 'void' }
    : { kind: 'value', schema: toJsonSchema(result, 'output') };
}

export function describeInteraction(interaction: Interaction<unknown, unknown>): InteractionDescription {
  return {
    id: interaction.id,
    // The host sends the request and receives the response.
    request: toJsonSchema(interaction.request, 'output'),
    response: toJsonSchema(interaction.response, 'input'),
  };
}

/**
 * The description of a host whose router serves `serviceIds` (looked up in `registry`; local services are not
 * reachable through `exposed`, so they never appear) and that may request `interactions()`. Services are described
 * once, on first use; interactions each time, since a host learns of one when it first requests it.
 */
export function hostDescriber(
  registry: ServiceRegistry,
  serviceIds: readonly string[],
  interactions: () => readonly Interaction<unknown, unknown>[],
): () => HostDescription {
  let services: ServiceDescription[] | undefined;
  const described = new WeakMap<Interaction<unknown, unknown>, InteractionDescription>();
  const describeOnce = (interaction: Interaction<unknown, unknown>) => {
    let description = described.get(interaction);
    if (description === undefined) described.set(interaction, (description = describeInteraction(interaction)));
    return description;
  };
  return () => {
    services ??= [...serviceIds].sort(compare).flatMap((id) => {
      const service = registry.exposed(id);
      return service === undefined ? [] : [{ id, ...describeExposure(service.exposure) }];
    });
    return {
      dialect: JSON_SCHEMA_DIALECT,
      services,
      interactions: [...interactions()].sort((a, b) => compare(a.id, b.id)).map(describeOnce),
    };
  };
}

/** One description, for a host at this moment (see `hostDescriber`). */
export function describeHost(
  registry: ServiceRegistry,
  serviceIds: readonly string[],
  interactions: readonly Interaction<unknown, unknown>[],
): HostDescription {
  return hostDescriber(registry, serviceIds, () => interactions)();
}

function mapValues<V>(record: Readonly<Record<string, V>>, map: (value: V) => JsonSchema): Record<string, JsonSchema> {
  return Object.fromEntries(Object.entries(record).map(([name, value]) => [name, map(value)]));
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
