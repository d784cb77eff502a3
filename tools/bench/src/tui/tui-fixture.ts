import { rm } from 'node:fs/promises';
import type { ModelProvider } from '@pi/agent';
import { chatSessionFacet } from '@pi/chat-session';
import { chatTuiFacet } from '@pi/chat-tui';
import { modelProviderFacet, startTestSessionHost, type TestFacet } from '@pi/host-session/testing';
import { startTuiHost, type TuiHost } from '@pi/host-tui';
import type { CodingAgentTuiPluginContext, TranscriptAccess } from '@pi/plugin-api';
import type { RpcClient } from '@pi/transport-trpc';
import { seededSessionDirectory } from './seeded-session';
import { createTimedTerminal, type TimedTerminal } from './timed-terminal';

export interface TuiFixtureOptions {
  readonly provider: ModelProvider;
  /** User messages already in the session file when the session starts (default none). */
  readonly seeded?: number;
  readonly columns?: number;
  readonly rows?: number;
}

/** A real session host (@pi/chat over a WebSocket) and the TUI host with the chat facet, on a timed terminal. */
export interface TuiFixture {
  readonly host: TuiHost;
  readonly client: RpcClient;
  readonly timed: TimedTerminal;
  /** The host's transcript, as a facet sees it: blocks upserted here are drawn like any plugin's. */
  readonly transcript: TranscriptAccess;
  /** The screen's rows joined by newlines. */
  screen(): string;
  close(): Promise<void>;
}

export async function startTuiFixture(options: TuiFixtureOptions): Promise<TuiFixture> {
  const facets: TestFacet[] = [
    { id: '@pi/providers-builtin', facet: modelProviderFacet(options.provider) },
    { id: '@pi/chat', facet: chatSessionFacet },
  ];
  const directory = options.seeded === undefined ? undefined : await seededSessionDirectory(options.seeded);
  const session = await startTestSessionHost({ transport: 'websocket', facets, directory });
  const client = await session.connect();
  const timed = createTimedTerminal(options.columns ?? 80, options.rows ?? 24);
  let transcript: TranscriptAccess | undefined;
  const benchFacet = (context: CodingAgentTuiPluginContext) => void (transcript = context.transcript);
  const started = await startTuiHost({
    facets: [
      { id: '@pi/chat', config: null, facet: chatTuiFacet },
      { id: '@pi/bench', config: null, facet: benchFacet },
    ],
    client,
    terminal: timed.terminal,
    label: 'bench',
  });
  const close = async () => {
    await session.close();
    if (directory !== undefined) await rm(directory, { recursive: true, force: true });
  };
  if (started.isErr() || transcript === undefined) {
    await close();
    throw new Error(`The TUI host did not start: ${started.isErr() ? started.error.message : 'no transcript'}`);
  }
  const host = started.value;
  return {
    host,
    client,
    timed,
    transcript,
    screen: () => host.screen.text().join('\n'),
    async close() {
      await host.stop();
      await close();
    },
  };
}

/** A transcript block of one short line under a blank one, like a user message. */
export function fillerBlock(index: number): { render(width: number): string[] } {
  const text = `› entry ${index}: the quick brown fox jumps over the lazy dog`;
  return { render: (width) => ['', text.slice(0, width)] };
}

/** Upserts `count` filler blocks straight into the TUI host's transcript and paints once. */
export function fillTranscript(fixture: TuiFixture, count: number): void {
  for (let index = 0; index < count; index += 1) fixture.transcript.upsert(`bench:${index}`, fillerBlock(index));
  fixture.host.flush();
}
