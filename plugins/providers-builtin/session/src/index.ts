import { PROVIDERS_BUILTIN_PLUGIN_ID } from '@pi/providers-builtin';
import type { SessionFacet } from '@pi/plugin-api';
import { createProvidersBuiltinFacet } from './providers-facet';

/** The manifest id this facet answers to. */
export const pluginId = PROVIDERS_BUILTIN_PLUGIN_ID;

export { MODELS_FILE_NAME, createProvidersBuiltinFacet, type ProvidersBuiltinOptions } from './providers-facet';
export { nextThinkingLevel } from './thinking-level';

/** The session facet of @pi/providers-builtin with real I/O (process.env, global fetch). */
export const providersBuiltinSessionFacet: SessionFacet = createProvidersBuiltinFacet();

/** The facet a session host resolves for @pi/providers-builtin. */
export const sessionFacet: SessionFacet = providersBuiltinSessionFacet;

export default sessionFacet;
