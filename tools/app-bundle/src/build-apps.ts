import { APPS } from './apps';
import { buildApp } from './build-app';

/** Builds the named apps (default: all); called by bin/bundle-apps.mjs when a bundle is stale. */
export async function buildApps(names: readonly string[]): Promise<void> {
  for (const app of APPS.filter((candidate) => names.length === 0 || names.includes(candidate.name))) {
    await buildApp(app);
  }
}
