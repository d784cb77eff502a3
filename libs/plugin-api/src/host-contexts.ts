import type { CodingAgentCoordinatorPluginContext } from './coordinator-context';
import type { CodingAgentSessionPluginContext } from './session-context';
import type { CodingAgentTuiPluginContext } from './tui-context';

/** Every host a plugin can have a facet for, and the context that host gives its facets. */
export interface HostContexts {
  readonly coordinator: CodingAgentCoordinatorPluginContext;
  readonly session: CodingAgentSessionPluginContext;
  readonly tui: CodingAgentTuiPluginContext;
}

export type HostName = keyof HostContexts;

export const HOST_NAMES: readonly HostName[] = Object.freeze(['coordinator', 'session', 'tui']);

/** A facet: the setup function of one plugin for one host, over that host's context only. */
export type Facet<H extends HostName> = (context: HostContexts[H]) => void | Promise<void>;
