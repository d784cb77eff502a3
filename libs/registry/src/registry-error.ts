import type { OwnerMessage } from './draft';

export const RegistryErrorCode = {
  reentrantRebuild: 'reentrant_rebuild',
  buildFailed: 'build_failed',
} as const;

export type RegistryErrorCode = (typeof RegistryErrorCode)[keyof typeof RegistryErrorCode];

/** A rebuild that produced no new state; the registry keeps its previous one. */
export interface RegistryError {
  readonly code: RegistryErrorCode;
  readonly registry: string;
  readonly message: string;
  /** Contribution failures of the abandoned replay, so a build failure can be traced to its cause. */
  readonly errors: OwnerMessage[];
}
