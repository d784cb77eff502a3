import type { AgentHarness, AnyAgentTool, ModelProvider } from '@pi/agent';
import { scopedContributions, type ProvidingSide, type RunnableFacet } from '@pi/host-kit';
import type { PluginLifecycleScope } from '@pi/kernel';
import {
  SettingsBackendService,
  type CodingAgentSessionPluginContext,
  type DiagnosticSeverity,
  type SessionIdentity,
  type SessionPaths,
  type SessionUpstream,
} from '@pi/plugin-api';
import type { ContributionRegistry } from '@pi/registry';
import { agentScope } from './agent-scope';
import { pluginHooks } from './plugin-hooks';
import { pluginSettings } from './plugin-settings';
import type { SessionDiagnostics } from './session-diagnostics';
import type { SessionLifecycleHooks } from './session-lifecycle-hooks';
import type { EntryProjectors } from './storage/entry-projectors';
import type { SessionStorage } from './storage/session-storage';
import { pluginViews } from './views/plugin-views';
import type { ViewRegistry } from './views/view-registry';

type Registry<T> = ContributionRegistry<T, ReadonlyMap<string, T>>;

const SEVERITIES: ReadonlySet<string> = new Set<DiagnosticSeverity>(['error', 'warning', 'info']);

/** What the session host shares with every facet context it builds (each context scopes it to one plugin). */
export interface SessionParts {
  readonly providing: ProvidingSide;
  readonly harness: AgentHarness;
  readonly lifecycle: SessionLifecycleHooks;
  readonly identity: SessionIdentity;
  readonly paths: SessionPaths;
  readonly upstream: SessionUpstream;
  readonly tools: { readonly registry: Registry<AnyAgentTool>; readonly rebuild: () => void };
  readonly providers: { readonly registry: Registry<ModelProvider>; readonly rebuild: () => void };
  readonly views: ViewRegistry;
  readonly diagnostics: SessionDiagnostics;
  readonly storage: SessionStorage;
  readonly projectors: EntryProjectors;
  /** How hooks reach the harness: held until the plugin set goes live, dropped when it is replaced (AttachmentGate). */
  readonly attach: (attach: () => () => void) => () => void;
  /** How event listeners reach the harness: held until the plugin set goes live. */
  readonly observe: (attach: () => () => void) => () => void;
}

/**
 * One facet's context: the host kit's providing capabilities plus exactly the session authority a plugin may
 * hold. Everything a facet registers through it is owned by its scope, so disposing the plugin removes it.
 */
export function sessionFacetContext(
  scope: PluginLifecycleScope,
  facet: RunnableFacet<CodingAgentSessionPluginContext>,
  parts: SessionParts,
): CodingAgentSessionPluginContext {
  const { failures } = parts.providing;
  const providing = parts.providing.contextFor(scope, facet.id, facet.config);
  const rebuildRegistries = () => {
    parts.tools.rebuild();
    parts.providers.rebuild();
  };
  const agentParts = {
    harness: parts.harness,
    identity: parts.identity,
    lifecycle: parts.lifecycle,
    failures,
    attach: parts.attach,
    observe: parts.observe,
  };
  return Object.freeze({
    ...providing,
    agent: agentScope(agentParts, facet.id),
    ...pluginHooks(agentParts, facet.id, scope),
    paths: parts.paths,
    upstream: parts.upstream,
    providers: scopedContributions(parts.providers.registry, facet.id, scope, parts.providers.rebuild, failures),
    tools: scopedContributions(parts.tools.registry, facet.id, scope, parts.tools.rebuild, failures),
    view: pluginViews(parts.views, facet.id, scope),
    settings: pluginSettings(facet.id, scope, () => providing.tryUse(SettingsBackendService), rebuildRegistries),
    store: parts.storage.bind(facet.id),
    projectEntries: (projector) => parts.projectors.register(facet.id, projector, scope),
    diagnostics: Object.freeze({
      report: (severity: DiagnosticSeverity, message: string) => {
        if (!SEVERITIES.has(severity))
          throw new TypeError(`Plugin "${facet.id}": no diagnostic severity "${severity}"`);
        parts.diagnostics.record(facet.id, 'report', severity, String(message));
      },
    }),
  } satisfies CodingAgentSessionPluginContext);
}
