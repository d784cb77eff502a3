import { createDeferred, createScriptedProvider } from '@pi/agent/testing';
import type { ModelProvider } from '@pi/agent';
import { chatSessionFacet } from '@pi/chat-session';
import { chatTuiFacet } from '@pi/chat-tui';
import { modelProviderFacet, startTestSessionHost } from '@pi/host-session/testing';
import { startTestTuiHost, type TestTuiHost } from '@pi/host-tui/testing';
import type { TransportKind } from '@pi/test-support';

/** A model that streams its first words, then waits for the test to let it finish (or for the run's abort). */
export function heldAnswer(): { readonly provider: ModelProvider; readonly finish: () => void } {
  const finish = createDeferred<void>();
  const provider = createScriptedProvider({
    turns: [
      [
        { type: 'text_delta', delta: 'first words ' },
        { type: 'wait', until: finish.promise },
        { type: 'text_delta', delta: 'and the last words' },
        { type: 'done', stopReason: 'stop' },
      ],
    ],
  });
  return { provider, finish: () => finish.resolve() };
}

/** A session host with only chat, answering from `provider`, and a TUI with only chat's facet attached to it. */
export async function startChatTui(
  transport: TransportKind,
  provider: ModelProvider,
): Promise<{ readonly tui: TestTuiHost; close(): Promise<void> }> {
  const session = await startTestSessionHost({
    transport,
    facets: [
      { id: '@pi/providers-builtin', facet: modelProviderFacet(provider) },
      { id: '@pi/chat', facet: chatSessionFacet },
    ],
  });
  const tui = await startTestTuiHost({ facets: { '@pi/chat': chatTuiFacet }, client: await session.connect() });
  return {
    tui,
    close: async () => {
      await tui.stop();
      await session.close();
    },
  };
}
