import { BACKGROUND_CONTEXT } from '@pi/context';
import type { AgentMessage } from '@pi/agent';
import {
  MAX_DIAGNOSTICS,
  MAX_DIAGNOSTIC_LENGTH,
  type DiagnosticKind,
  type DiagnosticSeverity,
  type DiagnosticsService,
  type DiagnosticsState,
} from '@pi/plugin-api';
import { createRemoteState } from '@pi/remote';

/** The session's diagnostics: a bounded log served as the built-in `diagnostics` service. */
export class SessionDiagnostics {
  readonly #state = createRemoteState<DiagnosticsState>({ entries: [], unseen: 0 });
  #nextId = 0;
  readonly service: DiagnosticsService = {
    state: this.#state,
    clear: async (context) => {
      context.abortSignal?.throwIfAborted();
      if (this.#state.value.unseen > 0) this.#state.set({ ...this.#state.value, unseen: 0 }, context);
    },
  };

  constructor(private readonly now: () => number = Date.now) {}

  record(source: string, kind: DiagnosticKind, severity: DiagnosticSeverity, message: string): void {
    const { entries, unseen } = this.#state.value;
    const entry = {
      id: this.#nextId++,
      at: this.now(),
      source: source.slice(0, 214),
      kind,
      severity,
      message: message.length > MAX_DIAGNOSTIC_LENGTH ? `${message.slice(0, MAX_DIAGNOSTIC_LENGTH - 1)}…` : message,
    };
    const next = {
      entries: [...entries, entry].slice(-MAX_DIAGNOSTICS),
      unseen: unseen + (severity === 'info' ? 0 : 1),
    };
    this.#state.set(next, BACKGROUND_CONTEXT);
  }
}

/** The names of the tools a history's assistant messages called, in order of first use. */
export function toolsCalledIn(messages: readonly AgentMessage[]): string[] {
  const names = new Set<string>();
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    for (const part of message.content) if (part.type === 'tool_call') names.add(part.name);
  }
  return [...names];
}

/** A rebuild's diff as one line (`tools: added a, b; removed c`), or null when nothing changed. */
export function rebuildDiffLine(
  registry: string,
  diff: { readonly added: readonly string[]; readonly removed: readonly string[]; readonly changed: readonly string[] },
): string | null {
  const parts = (
    [
      ['added', diff.added],
      ['removed', diff.removed],
      ['changed', diff.changed],
    ] as const
  )
    .filter(([, ids]) => ids.length > 0)
    .map(([what, ids]) => `${what} ${ids.join(', ')}`);
  return parts.length === 0 ? null : `${registry}: ${parts.join('; ')}`;
}
