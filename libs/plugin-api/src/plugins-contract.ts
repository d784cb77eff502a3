import { z } from 'zod';
import type { Context } from '@pi/context';
import { defineRemoteService, type RemoteState } from '@pi/remote';

/**
 * The built-in `plugins` service every session serves (issue 23): which plugin set is live, and `reload`, which
 * reads the manifests and the plugins' code, settings, context files and resources again, starts the new set as a
 * candidate beside the running one and swaps it in only when every facet set up and activated. A set that fails
 * leaves the previous one running, untouched, and says why (here and in the diagnostics).
 */

/** How the last reload went. */
export interface ReloadOutcome {
  /** Whether the new set is live. */
  ok: boolean;
  /** The live set's number after the reload (unchanged when it failed). */
  generation: number;
  /** What changed, or why the new set was refused. */
  message: string;
}

export interface PluginSetState {
  /** The live set's number: 1 at start, one more for each reload that swapped a set in. */
  generation: number;
  /** The live set's plugins that have a session facet, in load order. */
  plugins: string[];
  /** Whether a reload is under way (a second request waits for it and shares its outcome). */
  reloading: boolean;
  /** The latest reload, or null before the first. */
  lastReload: (ReloadOutcome & { at: number }) | null;
}

export interface SessionPluginsService {
  readonly state: RemoteState<PluginSetState>;
  /** Builds and starts the plugin set anew; resolves once it is live or refused. */
  reload(context: Context): Promise<ReloadOutcome>;
}

const outcomeSchema = z.object({ ok: z.boolean(), generation: z.number().int().min(1), message: z.string() });

/** The `plugins` service's token: the session host provides it; the TUI's `/reload` and `pi call plugins.reload` use it. */
export const SessionPlugins = defineRemoteService<SessionPluginsService>('plugins', {
  methods: { reload: { args: [], result: outcomeSchema } },
  state: {
    state: z.object({
      generation: z.number().int().min(1),
      plugins: z.array(z.string()),
      reloading: z.boolean(),
      lastReload: outcomeSchema.extend({ at: z.number().int().min(0) }).nullable(),
    }),
  },
  events: {},
});
