import { afterEach, describe, expect, it } from 'vitest';
import { Chat, TranscriptReplica } from '@pi/chat';
import { connect, type PiClient } from '@pi/client';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { eventually } from '@pi/test-support';
import { Views } from '@pi/plugin-api';
import { QuestionView, type QuestionRequest } from '@pi/question';
import {
  PROCESS_TEST_TIMEOUT_MS,
  createSandbox,
  readConnectionFile,
  readSessionEntries,
  runPiSession,
  type SessionProcess,
  type SessionSandbox,
} from './pi-session-process';

const sandboxes: SessionSandbox[] = [];
const processes: SessionProcess[] = [];
const clients: PiClient[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  await Promise.all(processes.splice(0).map((process) => process.stop('SIGKILL')));
  await Promise.all(sandboxes.splice(0).map((sandbox) => sandbox.remove()));
});

async function startedSession(): Promise<{ sandbox: SessionSandbox; sessionId: string; client: PiClient }> {
  const sandbox = await createSandbox();
  sandboxes.push(sandbox);
  const process = runPiSession(sandbox, sandbox.flags);
  processes.push(process);
  const line = await process.listening();
  const { socketPath, token } = await readConnectionFile(line.connectionFile);
  const client = (await connect({ socketPath, token, reconnect: false }))._unsafeUnwrap();
  clients.push(client);
  return { sandbox, sessionId: line.sessionId, client };
}

/** Prompts through Chat and waits for the run to settle; returns the transcript entries then. */
async function promptAndSettle(client: PiClient, text: string) {
  const chat = await client.use(Chat);
  const transcript = new TranscriptReplica(chat);
  const settled = new Promise<void>((resolve) =>
    chat.events.subscribe((event) => event.type === 'settled' && resolve()),
  );
  const response = await chat.prompt({ text }, BACKGROUND_CONTEXT);
  expect(response).toMatchObject({ accepted: true, error: null });
  await settled;
  await eventually(() => transcript.complete);
  return transcript;
}

describe(
  'the question plugin end to end, through pi-session and its default manifest',
  { timeout: PROCESS_TEST_TIMEOUT_MS },
  () => {
    it("a model's question reaches the connected client as a view and its answer becomes the durable tool result", async () => {
      const { sandbox, sessionId, client } = await startedSession();
      const asked: QuestionRequest[] = [];
      const views = await client.use(Views);
      await views.show([QuestionView.component], BACKGROUND_CONTEXT);
      views.open.subscribe((records) => {
        for (const record of records) {
          if (record.component !== QuestionView.component || asked.length > 0) continue;
          asked.push(record.state as unknown as QuestionRequest);
          void views.message(record.viewId, { outcome: 'selected', index: 1 }, BACKGROUND_CONTEXT);
        }
      });

      const transcript = await promptAndSettle(client, 'ask me which color I like: red, green or blue');

      expect(asked).toHaveLength(1);
      expect(asked[0]?.options.map((option) => option.label)).toEqual(['red', 'green', 'blue']);
      const result = transcript.entries.find((entry) => entry.kind === 'tool_result');
      expect(result).toMatchObject({
        kind: 'tool_result',
        toolName: 'question',
        isError: false,
        details: { answer: 'green', wasCustom: false },
      });
      const last = transcript.entries.filter((entry) => entry.kind === 'assistant').at(-1);
      expect(JSON.stringify(last)).toContain('green');
      const durable = await readSessionEntries(sandbox.dataDir, sessionId);
      const toolMessage = durable.find(
        (entry) => entry['kind'] === 'message' && (entry['message'] as { role?: string }).role === 'tool',
      );
      expect(toolMessage).toMatchObject({ message: { toolName: 'question', details: { answer: 'green' } } });
    });

    it('with no client showing questions the tool result says so (fail closed) and the run still settles', async () => {
      const { client } = await startedSession();

      const transcript = await promptAndSettle(client, 'ask me which color I like: red, green or blue');

      const result = transcript.entries.find((entry) => entry.kind === 'tool_result');
      expect(result).toMatchObject({
        kind: 'tool_result',
        toolName: 'question',
        isError: true,
        details: { answer: null },
      });
      expect(JSON.stringify(result)).toContain('no_handler');
      expect(transcript.entries.at(-1)).toMatchObject({ kind: 'run_settled' });
    });
  },
);
