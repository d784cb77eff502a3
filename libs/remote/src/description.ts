import { z } from 'zod';
import type { JsonObject } from '@pi/json';

/**
 * What a providing host says about itself (`$rpc.describe`): its remote services and the interactions it may
 * request, every schema as JSON Schema. It is strict JSON, so any client (or the `pi` CLI) can read it without
 * the contracts' code. Local services never appear.
 */

/** The JSON Schema dialect every schema of a description is written in (their `$schema` is left out). */
export const JSON_SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema';

/** A JSON Schema document (an object; `{}` accepts anything). */
export type JsonSchema = JsonObject;

/** A method's result: a JSON value, nothing (void), or a reference to a live object with its own exposure. */
export type ResultDescription =
  | { readonly kind: 'value'; readonly schema: JsonSchema }
  | { readonly kind: 'void' }
  /** `exposure` is null when it is an enclosing result's exposure again (a recursive reference). */
  | { readonly kind: 'remote'; readonly exposure: ExposureDescription | null };

export interface MethodDescription {
  /** One schema per positional JSON argument (what the caller sends). */
  readonly args: readonly JsonSchema[];
  readonly result: ResultDescription;
}

/** An exposure as data: methods, replicated state cells and event streams, by name. */
export interface ExposureDescription {
  readonly methods: Readonly<Record<string, MethodDescription>>;
  readonly state: Readonly<Record<string, JsonSchema>>;
  readonly events: Readonly<Record<string, JsonSchema>>;
}

export interface ServiceDescription extends ExposureDescription {
  readonly id: string;
}

/** A request the host may send to one connected client, and the response it expects. */
export interface InteractionDescription {
  readonly id: string;
  readonly request: JsonSchema;
  readonly response: JsonSchema;
}

export interface HostDescription {
  readonly dialect: typeof JSON_SCHEMA_DIALECT;
  /** Sorted by id. */
  readonly services: readonly ServiceDescription[];
  /** Sorted by id: the interactions declared up front, plus any requested since the host started. */
  readonly interactions: readonly InteractionDescription[];
}

const jsonSchema = z.record(z.string(), z.json()) as z.ZodType<JsonSchema>;

const exposureDescription: z.ZodType<ExposureDescription> = z.lazy(() =>
  z.object({
    methods: z.record(z.string(), methodDescription),
    state: z.record(z.string(), jsonSchema),
    events: z.record(z.string(), jsonSchema),
  }),
);

const methodDescription: z.ZodType<MethodDescription> = z.lazy(() =>
  z.object({
    args: z.array(jsonSchema),
    result: z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('value'), schema: jsonSchema }),
      z.object({ kind: z.literal('void') }),
      z.object({ kind: z.literal('remote'), exposure: exposureDescription.nullable() }),
    ]),
  }),
);

/** Checks a description a client received: a host of another version may send more, never less. */
export const hostDescriptionSchema: z.ZodType<HostDescription> = z.object({
  dialect: z.literal(JSON_SCHEMA_DIALECT),
  services: z.array(
    z.object({
      id: z.string(),
      methods: z.record(z.string(), methodDescription),
      state: z.record(z.string(), jsonSchema),
      events: z.record(z.string(), jsonSchema),
    }),
  ),
  interactions: z.array(z.object({ id: z.string(), request: jsonSchema, response: jsonSchema })),
});
