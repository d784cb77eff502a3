export { createKernel } from './kernel';
export type { Kernel, KernelOptions } from './kernel';
export type { PluginLifecycleScope } from './lifecycle-scope';
export type { FacetEntry, PluginFacet } from './plugin-facet';
export { StaleScopeError, LateActivationError } from './scope-errors';
export { KernelStartErrorCode } from './kernel-errors';
export type {
  DisposalFailure,
  EffectFailure,
  KernelPhase,
  KernelStartError,
  KernelStopReport,
  PluginFailedError,
  StartRefusedError,
} from './kernel-errors';
export { parseManifest } from './manifest';
export type { ManifestEntry, PluginManifest } from './manifest';
export { loadManifestFile } from './manifest-file';
export { ManifestErrorCode } from './manifest-error';
export type { ManifestError } from './manifest-error';
export { findNonJson } from './json-value';
export type { JsonValue } from './json-value';
