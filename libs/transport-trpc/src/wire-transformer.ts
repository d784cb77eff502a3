import superjson from 'superjson';
import type { CombinedDataTransformer } from '@trpc/server';

/**
 * superjson on the links, strict on the way in. Every pi value is strict JSON, so a well-formed input is
 * `{ json }` and never needs superjson's `meta`. Refusing `meta` keeps a client from sending Dates, Maps or, worse,
 * `referentialEqualities` that turn a few bytes into a graph whose every path the JSON guard would walk.
 */
/** Stands in for an input that used superjson's `meta`: it matches no procedure's input. */
export const REFUSED_INPUT = Object.freeze({ refused: 'superjson meta is not accepted' });

export const wireTransformer: CombinedDataTransformer = {
  input: {
    serialize: (value: unknown) => superjson.serialize(value),
    deserialize: (value: unknown) => {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
      // Throwing here would fail the whole frame with no request id to answer; an input no procedure accepts
      // instead fails that one request with `invalid_argument`.
      if (Object.hasOwn(value, 'meta')) return REFUSED_INPUT;
      return (value as { json?: unknown }).json;
    },
  },
  // Everything a host sends is strict JSON already (checked results, state, events; formatted errors), so
  // `{ json }` is its exact superjson form: no per-frame walk, which matters when one change fans out to many.
  output: {
    serialize: (value: unknown) => ({ json: value }),
    deserialize: (value: unknown) => superjson.deserialize(value as never),
  },
};
