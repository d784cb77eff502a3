import type { AgentHarness } from '@pi/agent';

/** Whether the session is at work, as its coordinator needs to know before stopping an idle one. */
export interface SessionActivity {
  /** A run is in progress or prompts wait in its queue (its tools and dialogs run inside a run). */
  readonly busy: boolean;
  /** Called with each change of `busy`; the remover removes exactly this listener. */
  onChange(listener: (busy: boolean) => void): () => void;
}

/** The harness's activity, recomputed at each of its events; `dispose` stops following them. */
export function sessionActivity(harness: Pick<AgentHarness, 'main' | 'events'>): SessionActivity & {
  dispose(): void;
} {
  const listeners = new Set<{ readonly listener: (busy: boolean) => void }>();
  const measure = () => harness.main.running !== null || harness.main.queue.length > 0;
  let busy = measure();
  const stop = harness.events.subscribe(() => {
    const now = measure();
    if (now === busy) return;
    busy = now;
    for (const { listener } of [...listeners]) listener(busy);
  });
  return {
    get busy() {
      return busy;
    },
    onChange(listener) {
      const entry = { listener };
      listeners.add(entry);
      return () => void listeners.delete(entry);
    },
    dispose() {
      stop();
      listeners.clear();
    },
  };
}
