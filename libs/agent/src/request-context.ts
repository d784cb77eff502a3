import type { Context } from '@pi/context';
import type { AgentMessage, ModelProvider, SessionTree, ToolSchema } from '@pi/agent-contract';
import { COMPACT_AT_RATIO } from './compaction-plan';
import { compactContext, contextWindowOf } from './compaction';
import { branchContext, contextMessages, type EntryProjection } from './context-window';
import type { SessionWriter } from './session-writer';
import { estimateRequestTokens } from './token-estimate';

export interface RequestContextParts {
  readonly tree: SessionTree;
  readonly writer: SessionWriter;
  readonly provider: ModelProvider;
  readonly modelId: string;
  readonly operationId: string;
  readonly eventContext: Context;
  /** What the model reads of plugins' custom entries (none without it). */
  readonly projectEntry?: EntryProjection;
}

export type PreparedContext =
  | { kind: 'ready'; messages: AgentMessage[] }
  | { kind: 'aborted' }
  | { kind: 'failed'; error: string };

/**
 * The context of one run's model requests: the current branch from its latest compaction on, compacted first when
 * a request would hold more than COMPACT_AT_RATIO of the model's window (a model without a known window is never
 * compacted automatically). A failed automatic compaction writes nothing: the request goes out as it is while it
 * fits the window — and the run does not try again below the window — else the run fails, `compaction_failed`.
 */
export class RequestContext {
  readonly #parts: RequestContextParts;
  readonly #contextWindow: number | undefined;
  #failedOnce = false;

  constructor(parts: RequestContextParts) {
    this.#parts = parts;
    this.#contextWindow = contextWindowOf(parts.provider, parts.modelId);
  }

  /**
   * The provider said the request was too long for the model (whatever the estimate thought): compacts the branch
   * now, whatever its size. 'written' when a summary was written and the request can go again; else why not.
   */
  async compactAfterOverflow(context: Context): Promise<'written' | 'aborted' | { failed: string }> {
    const { tree, writer, provider, modelId, operationId, eventContext } = this.#parts;
    const compacted = await compactContext(
      {
        context: branchContext(tree.branch(), this.#parts.projectEntry),
        provider,
        modelId,
        contextWindow: this.#contextWindow,
        instructions: null,
        trigger: 'auto',
        operationId,
      },
      { writer, mayWrite: () => null, eventContext },
      context,
    );
    switch (compacted.kind) {
      case 'written':
      case 'aborted':
        return compacted.kind;
      case 'nothing_to_compact':
        return { failed: 'nothing before the latest turn to summarize' };
      case 'failed':
        return { failed: compacted.error };
      case 'refused':
        return { failed: compacted.message };
    }
  }

  async prepare(tools: readonly ToolSchema[], context: Context): Promise<PreparedContext> {
    const { tree, writer, provider, modelId, operationId, eventContext } = this.#parts;
    const window = this.#contextWindow;
    const current = branchContext(tree.branch(), this.#parts.projectEntry);
    const messages = contextMessages(current);
    if (window === undefined) return { kind: 'ready', messages };
    const tokens = estimateRequestTokens(messages, tools);
    const fits = tokens <= window;
    if (tokens <= window * COMPACT_AT_RATIO || (fits && this.#failedOnce)) return { kind: 'ready', messages };
    const compacted = await compactContext(
      { context: current, provider, modelId, contextWindow: window, instructions: null, trigger: 'auto', operationId },
      { writer, mayWrite: () => null, eventContext },
      context,
    );
    switch (compacted.kind) {
      case 'written':
        return { kind: 'ready', messages: contextMessages(branchContext(tree.branch(), this.#parts.projectEntry)) };
      case 'aborted':
        return { kind: 'aborted' };
      case 'nothing_to_compact':
      case 'failed':
      case 'refused': {
        this.#failedOnce = true;
        if (fits) return { kind: 'ready', messages };
        const why = compacted.kind === 'failed' ? compacted.error : 'nothing before the latest turn to summarize';
        return {
          kind: 'failed',
          error: `compaction_failed: the context (~${tokens} tokens) exceeds ${provider.id}/${modelId}'s window of ${window} tokens and could not be compacted: ${why}`,
        };
      }
    }
  }
}
