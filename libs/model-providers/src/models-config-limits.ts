/** Far above any model's window today; a larger number is a typo, not a model. */
export const MAX_CONTEXT_WINDOW = 100_000_000;

/**
 * The largest models.json a session reads: 1 MiB. Real catalogues are far smaller (OpenRouter's whole list, a few
 * hundred models, is well under 100 KiB written this way), and parsing 1 MiB of JSON, one step that cannot be
 * split, holds the event loop a few ms. A larger file is not read at all.
 */
export const MAX_MODELS_JSON_BYTES = 1024 * 1024;

/**
 * The most models models.json may list, over all its providers: 2,000, several times OpenRouter's few hundred.
 * Every model is replicated to each presentation, and each change of the Models state (a refresh's status, a
 * selection) checks, copies and encodes the whole catalogue in one step: at 2,000 models about 8 ms once the code is
 * warm, 20 ms the first time (measured by `nx run @pi/bench:models-catalog`).
 */
export const MAX_MODELS_JSON_MODELS = 2_000;

/** Models validated between two turns of the event loop (about a millisecond of zod, a few the first time). */
export const MODELS_PER_STEP = 250;

/** The problems of an invalid file listed in its warning; the rest are counted, so a warning stays a line or two. */
export const MAX_REPORTED_ISSUES = 20;
