import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { Chat } from '@pi/chat';
import { connect, type PiClient } from '@pi/client';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { ViewReplica, Views } from '@pi/plugin-api';
import { QuestionView } from '@pi/question';
import { eventually, messageOnceTaken } from '@pi/test-support';
import {
  PROCESS_TEST_TIMEOUT_MS,
  createSandbox,
  readConnectionFile,
  readSessionEntries,
  runPiSession,
  type SessionProcess,
  type SessionSandbox,
} from './pi-session-process';

const WORKSPACE = resolve(fileURLToPath(new URL('../../..', import.meta.url)));
/** The example todo plugin, loaded by its path: its list is one durable view. */
const TODO_PLUGIN = join(WORKSPACE, 'plugins', 'todo', 'contract');

const sandboxes: SessionSandbox[] = [];
const processes: SessionProcess[] = [];
const clients: PiClient[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  await Promise.all(processes.splice(0).map((process) => process.stop('SIGKILL')));
  await Promise.all(sandboxes.splice(0).map((sandbox) => sandbox.remove()));
});

/** Starts pi-session with the todo plugin and a client watching its views. */
function attach(sandbox: SessionSandbox, manifest: string, extra: readonly string[] = []) {
  return attachWith(sandbox, [...sandbox.flags, '--manifest', manifest, ...extra]);
}

/** Starts pi-session with `args` and a client watching its views, which shows questions. */
async function attachWith(sandbox: SessionSandbox, args: readonly string[]) {
  const process = runPiSession(sandbox, [...args]);
  processes.push(process);
  const line = await process.listening();
  const { socketPath, token } = await readConnectionFile(line.connectionFile);
  const client = (await connect({ socketPath, token, reconnect: false }))._unsafeUnwrap();
  clients.push(client);
  const views = await client.use(Views);
  const replica = new ViewReplica();
  views.open.subscribe((records) => replica.applyOpen(records));
  views.deltas.subscribe((delta) => replica.applyDelta(delta));
  await views.show([QuestionView.component], BACKGROUND_CONTEXT);
  return { process, line, chat: await client.use(Chat), views, replica };
}

describe('a durable view of a pi-session killed with SIGKILL', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('comes back with its id and state when the session restarts from its file', async () => {
    const sandbox = await createSandbox();
    sandboxes.push(sandbox);
    const manifest = join(sandbox.root, 'manifest.json');
    await writeFile(
      manifest,
      JSON.stringify({ plugins: ['@pi/settings', '@pi/providers-builtin', '@pi/chat', TODO_PLUGIN] }),
    );
    const first = await attach(sandbox, manifest);
    const settled = new Promise<void>((done) =>
      first.chat.events.subscribe((event) => event.type === 'settled' && done()),
    );
    await first.chat.prompt({ text: '/tool todo {"action":"add","text":"outlive a crash"}' }, BACKGROUND_CONTEXT);
    await settled;
    const [panel] = first.replica.list();
    await eventually(() => JSON.stringify(first.replica.list()[0]?.state).includes('outlive a crash'));
    // What a restart reads: the views written beside the session file.
    const file = join(sandbox.dataDir, 'sessions', `${first.line.sessionId}.jsonl.views.json`);
    await fileSays(file, 'outlive a crash');
    expect(await first.process.stop('SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' });

    const second = await attach(sandbox, manifest, ['--session', first.line.sessionId]);

    expect(second.replica.list()).toEqual([
      expect.objectContaining({
        viewId: panel?.viewId,
        component: 'todo.panel',
        durable: true,
        state: { items: [{ id: 1, text: 'outlive a crash', done: false }], nextId: 2 },
      }),
    ]);
  });
});

describe('a question of a pi-session killed with SIGKILL', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('is asked again on the same view when the session restarts, and its answer goes on with the run', async () => {
    const sandbox = await createSandbox();
    sandboxes.push(sandbox);
    const first = await attachWith(sandbox, sandbox.flags);
    const { operationId } = await first.chat.prompt(
      { text: 'ask me which color I like: red, green or blue' },
      BACKGROUND_CONTEXT,
    );
    await eventually(() => first.replica.list().some((view) => view.component === QuestionView.component));
    const [question] = first.replica.list();
    const viewId = question?.viewId ?? '';
    await fileSays(join(sandbox.dataDir, 'sessions', `${first.line.sessionId}.jsonl.views.json`), viewId);
    expect(await first.process.stop('SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' });

    const second = await attachWith(sandbox, [...sandbox.flags, '--session', first.line.sessionId]);
    const settled = new Promise<void>((done) =>
      second.chat.events.subscribe((event) => event.type === 'settled' && event.operationId === operationId && done()),
    );
    await eventually(() => second.replica.get(viewId) !== undefined);
    await messageOnceTaken(second.views, viewId, { outcome: 'selected', index: 0 });
    await settled;

    const entries = await readSessionEntries(sandbox.dataDir, first.line.sessionId);
    const own = entries.filter((entry) => entry['operationId'] === operationId);
    const results = own.filter((entry) => (entry['message'] as { role?: string } | undefined)?.role === 'tool');
    expect(results).toEqual([
      expect.objectContaining({
        message: expect.objectContaining({ toolName: 'question', details: expect.objectContaining({ answer: 'red' }) }),
      }),
    ]);
    expect(own.at(-1)).toMatchObject({ kind: 'operation_settled', outcome: 'completed' });
    await eventually(() => second.replica.get(viewId) === undefined);
  });
});

/** Resolves once the file holds `text`: read again on each turn of the event loop (it is replaced whole). */
async function fileSays(file: string, text: string): Promise<void> {
  while (!(await readFile(file, 'utf8').catch(() => '')).includes(text)) {
    await new Promise((next) => setImmediate(next));
  }
}
