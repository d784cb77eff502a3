import { GIT_PLUGIN_ID } from '@pi/git';
import type { SessionFacet } from '@pi/plugin-api';
import { createGitFacet } from './git-facet';

/** The manifest id this facet answers to. */
export const pluginId = GIT_PLUGIN_ID;

export { GIT_FACET_DEFAULTS, createGitFacet, defaultWatchStrategy, type GitFacetOptions } from './git-facet';
export type { WatchMode, WatchStrategy } from './target-watch';
export type { WatchFunction } from './watch-function';

/** The session facet of @pi/git with real I/O (git from process.env's PATH, fs.watch). */
export const gitSessionFacet: SessionFacet = createGitFacet();

/** The session host imports the module the contract's "pi" field names and runs its default export. */
export default gitSessionFacet;
