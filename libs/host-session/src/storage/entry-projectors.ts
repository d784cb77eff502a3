import type { CustomEntry, EntryProjection } from '@pi/agent';
import type { PluginLifecycleScope } from '@pi/kernel';
import type { AgentMessage, EntryProjector } from '@pi/plugin-api';

/**
 * Every plugin's entry projector (`context.projectEntries`): what the model reads of the custom entries a plugin
 * appended, asked per request for each one on the branch. A plugin without one, a projector that answers nothing,
 * or one that throws or answers something other than user messages leaves the entry invisible to the model; the
 * last two are recorded against the plugin.
 */
export class EntryProjectors {
  readonly #projectors = new Map<string, EntryProjector>();
  readonly #onFailure: (owner: string, message: string) => void;

  constructor(onFailure: (owner: string, message: string) => void) {
    this.#onFailure = onFailure;
  }

  /** The plugin's projector, replacing an earlier one; removed with its scope or by the returned remover. */
  register(owner: string, projector: EntryProjector, scope: PluginLifecycleScope): () => void {
    if (typeof projector !== 'function') throw new TypeError(`Plugin "${owner}": an entry projector is a function`);
    this.#projectors.set(owner, projector);
    const remove = () => {
      if (this.#projectors.get(owner) === projector) this.#projectors.delete(owner);
    };
    scope.own(remove);
    return remove;
  }

  readonly project: EntryProjection = (entry: CustomEntry) => {
    const projector = this.#projectors.get(entry.namespace);
    if (projector === undefined) return undefined;
    let projected: unknown;
    try {
      projected = projector(entry.data, entry);
    } catch (error) {
      this.#onFailure(
        entry.namespace,
        `entry projector threw: ${error instanceof Error ? error.message : String(error)}`,
      );
      return undefined;
    }
    if (projected === undefined) return undefined;
    if (!Array.isArray(projected) || !projected.every(isUserMessage)) {
      this.#onFailure(entry.namespace, 'entry projector answered something other than user messages; ignored');
      return undefined;
    }
    return projected as readonly AgentMessage[];
  };
}

function isUserMessage(message: unknown): boolean {
  const candidate = message as { role?: unknown; content?: unknown } | null;
  if (candidate?.role !== 'user' || !Array.isArray(candidate.content)) return false;
  return candidate.content.every((part: { type?: unknown; text?: unknown } | null) => {
    return part?.type === 'text' && typeof part.text === 'string';
  });
}
