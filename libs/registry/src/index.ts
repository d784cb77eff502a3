export { createRegistry } from './contribution-registry';
export type { Contribution, ContributionRegistry, Rebuilt, RegistryOptions } from './registry-types';
export type { Draft, OwnerMessage, TrailStep } from './draft';
export { RegistryErrorCode } from './registry-error';
export type { RegistryError } from './registry-error';
export { cloneValue } from './clone-value';
export { dataEquals } from './data-equals';
