import { afterEach } from 'vitest';
import { Chat, TranscriptReplica } from '@pi/chat';
import { connect, type PiClient } from '@pi/client';
import { eventually } from '@pi/test-support';
import { readConnectionFile, runPiSession, type SessionProcess, type SessionSandbox } from './pi-session-process';

/**
 * Long enough that the offline model is still streaming it back (one word per delta) when the process dies, and
 * short enough (~18k estimated tokens) to stay under the automatic compaction threshold of its 32k window: a longer
 * one would be summarized first, and the echo would answer the short summary at once.
 */
export const LONG_PROMPT = Array.from({ length: 8_000 }, (_, index) => `word${index}`).join(' ');

/**
 * Real pi-session processes with a chat client each, for tests that kill and restart them: `attach` starts one in
 * the sandbox and waits for its transcript; after each test every client closes and every process is SIGKILLed.
 */
export function chatSessions() {
  const processes: SessionProcess[] = [];
  const clients: PiClient[] = [];
  afterEach(async () => {
    for (const client of clients.splice(0)) client.close();
    await Promise.all(processes.splice(0).map((process) => process.stop('SIGKILL')));
  });
  return {
    async attach(where: SessionSandbox, extra: readonly string[] = []) {
      const process = runPiSession(where, [...where.flags, ...extra]);
      processes.push(process);
      const line = await process.listening();
      const { socketPath, token } = await readConnectionFile(line.connectionFile);
      const client = (await connect({ socketPath, token, reconnect: false }))._unsafeUnwrap();
      clients.push(client);
      const chat = await client.use(Chat);
      // In the turn the proxy hydrated, so it hears every appended entry.
      const transcript = new TranscriptReplica(chat);
      await eventually(() => transcript.complete);
      return { process, line, chat, transcript };
    },
  };
}
