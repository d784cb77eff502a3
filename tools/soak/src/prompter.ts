import type { PiClient } from '@pi/client';
import type { JsonValue } from '@pi/remote';

/** A settled run, as the chat service's `settled` event tells it. */
export interface Settled {
  readonly outcome: string;
  readonly error: string | null;
}

/**
 * A client that prompts a session (chat.prompt) and hears its transcript: every entry id the session announced
 * as appended is one it has written, so it must survive any crash after.
 */
export interface Prompter {
  /** Ids of every transcript entry the session announced (`appended`), in order. */
  readonly acknowledged: string[];
  /** Sends a prompt; resolves with its operation id once accepted, rejects with `PromptRefused` or the call's error. */
  prompt(text: string): Promise<string>;
  /** Resolves when the run settles (or rejects after `timeoutMs`). */
  settled(operationId: string, timeoutMs?: number): Promise<Settled>;
  /** Prompt and wait for the run to settle. */
  run(text: string, timeoutMs?: number): Promise<Settled>;
  stop(): void;
}

/** A prompt the session did not accept, with the code it gave (`busy`, `no_model`, …). */
export class PromptRefused extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(`The prompt was refused: ${code}: ${message}`);
  }
}

interface ChatFrame {
  readonly kind?: string;
  readonly event?: {
    type?: string;
    operationId?: string;
    outcome?: string;
    error?: string | null;
    entry?: { id?: string };
  };
}

export async function startPrompter(client: PiClient): Promise<Prompter> {
  const acknowledged: string[] = [];
  const done = new Map<string, Settled>();
  const waiting = new Map<string, (settled: Settled) => void>();
  const stopWatch = await client.watch('chat', {
    next(frame: unknown) {
      const { kind, event } = frame as ChatFrame;
      if (kind !== 'event' || event === undefined) return;
      if (event.type === 'appended' && typeof event.entry?.id === 'string') acknowledged.push(event.entry.id);
      if (event.type === 'settled' && event.operationId !== undefined) {
        const settled = { outcome: event.outcome ?? '?', error: event.error ?? null };
        done.set(event.operationId, settled);
        waiting.get(event.operationId)?.(settled);
      }
    },
    error: () => undefined,
  });
  const prompt = async (text: string) => {
    const answer = await client.call('chat', 'prompt', [{ text } as JsonValue]);
    const response = answer.value as {
      accepted: boolean;
      operationId: string | null;
      error: { code: string; message: string } | null;
    };
    if (!response.accepted || response.operationId === null) {
      throw new PromptRefused(response.error?.code ?? 'unknown', response.error?.message ?? '');
    }
    return response.operationId;
  };
  const settled = (operationId: string, timeoutMs = 120_000) =>
    new Promise<Settled>((resolve, reject) => {
      const already = done.get(operationId);
      if (already !== undefined) return resolve(already);
      const timer = setTimeout(
        () => reject(new Error(`Run ${operationId} did not settle in ${timeoutMs / 1000} s`)),
        timeoutMs,
      );
      waiting.set(operationId, (value) => {
        clearTimeout(timer);
        waiting.delete(operationId);
        resolve(value);
      });
    });
  return {
    acknowledged,
    prompt,
    settled,
    run: async (text, timeoutMs) => settled(await prompt(text), timeoutMs),
    stop: () => stopWatch(),
  };
}

/** A prompt of `words` words (each `wordLength` characters): the offline model echoes it back a word per delta. */
export function promptText(label: string, words: number, wordLength = 8): string {
  const padding = 'x'.repeat(Math.max(0, wordLength - 8));
  return `${label}: ${Array.from({ length: words }, (_, index) => `w${String(index).padStart(6, '0')}-${padding}`).join(' ')}`;
}
