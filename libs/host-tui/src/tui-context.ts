import { consumingContext, type RunnableFacet } from '@pi/host-kit';
import type { PluginLifecycleScope } from '@pi/kernel';
import type {
  CodingAgentTuiPluginContext,
  CommandContributions,
  CompletionContributions,
  EditorAccess,
  KeybindingContributions,
  SessionAttachment,
  SlotContributions,
  ToolRenderer,
  ToolRendererContributions,
  TranscriptAccess,
  TuiCommand,
  TuiFacilities,
  ViewComponentContributions,
} from '@pi/plugin-api';
import type { RpcClient } from '@pi/transport-trpc';
import type { CommandRegistry } from './command-registry';
import type { CompletionRegistry } from './completion-registry';
import type { SlotRegistry } from './slot-registry';
import type { ToolRendererRegistry } from './tool-renderer-registry';
import type { ViewComponentRegistry } from './view-component-registry';

/** What the TUI host shares with every facet context it builds (each context scopes it to one plugin). */
export interface TuiParts {
  readonly client: RpcClient;
  readonly ui: TuiFacilities;
  /** Marks an interaction's handler as waiting for the user; the returned function ends it. */
  readonly answering: () => () => void;
  readonly commands: CommandRegistry;
  readonly runCommand: (id: string, args: string) => Promise<void>;
  readonly bind: (owner: string, key: string, commandId: string) => () => void;
  readonly renderers: ToolRendererRegistry;
  readonly slots: SlotRegistry;
  readonly views: ViewComponentRegistry;
  readonly completions: CompletionRegistry;
  readonly editor: EditorAccess;
  readonly transcript: TranscriptAccess;
  readonly session: SessionAttachment;
}

/**
 * One TUI facet's context: the host kit's consuming side (remote `use`, connection, interaction handlers) plus
 * the terminal's facilities. Every registration is owned by the plugin's scope and returns its remover.
 */
export function tuiFacetContext(
  scope: PluginLifecycleScope,
  facet: RunnableFacet<CodingAgentTuiPluginContext>,
  parts: TuiParts,
): CodingAgentTuiPluginContext {
  const owned = (remove: () => void): (() => void) => {
    scope.own(remove);
    return remove;
  };
  const commands: CommandContributions = {
    register: (command: TuiCommand) => owned(parts.commands.register(facet.id, command)),
    list: () => parts.commands.list(),
    run: (id, args = '') => parts.runCommand(id, args),
  };
  const keybindings: KeybindingContributions = {
    bind: (key, commandId) => owned(parts.bind(facet.id, key, commandId)),
  };
  const toolRenderers: ToolRendererContributions = {
    add: (toolName, renderer) => owned(parts.renderers.add(toolName, renderer as ToolRenderer)),
    get: (toolName) => parts.renderers.get(toolName),
  };
  const slots: SlotContributions = { add: (slot, widget) => owned(parts.slots.add(facet.id, slot, widget)) };
  const views: ViewComponentContributions = {
    add: (component) => owned(parts.views.add(facet.id, component as never)),
  };
  const completions: CompletionContributions = {
    add: (source) => owned(parts.completions.add(facet.id, source)),
  };
  const editor: EditorAccess = {
    onSubmit: (handler) => owned(parts.editor.onSubmit(handler)),
    send: (text, action) => parts.editor.send(text, action),
    setText: (text) => parts.editor.setText(text),
    text: () => parts.editor.text(),
  };
  const consuming = consumingContext(scope, facet.id, facet.config, parts.client);
  const interactions: CodingAgentTuiPluginContext['interactions'] = {
    handle: (interaction, handler) =>
      consuming.interactions.handle(interaction, async (request, context) => {
        const answered = parts.answering();
        try {
          return await handler(request, context);
        } finally {
          answered();
        }
      }),
  };
  return Object.freeze({
    ...consuming,
    interactions: Object.freeze(interactions),
    ui: parts.ui,
    commands: Object.freeze(commands),
    keybindings: Object.freeze(keybindings),
    toolRenderers: Object.freeze(toolRenderers),
    slots: Object.freeze(slots),
    editor: Object.freeze(editor),
    completions: Object.freeze(completions),
    views: Object.freeze(views),
    session: parts.session,
    transcript: Object.freeze({
      upsert: parts.transcript.upsert,
      remove: parts.transcript.remove,
      clear: parts.transcript.clear,
      get expanded() {
        return parts.transcript.expanded;
      },
      onReachTop: (listener: () => void) => owned(parts.transcript.onReachTop(listener)),
    }),
  } satisfies CodingAgentTuiPluginContext);
}
