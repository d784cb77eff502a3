import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { windowedProvider, type WindowedProvider } from '@pi/agent/testing';
import { SHELL_OUTPUT_LIMITS, type ShellTranscriptEntry, type TranscriptEntry } from '@pi/chat';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { abortableContext, eventually, remoteErrorOf } from '@pi/test-support';
import {
  observeChat,
  projectDirectory,
  sessionDirectory,
  sessionFileEntries,
  startChatHost,
  type ChatObserver,
  type Transport,
} from './chat-host';
import { pacedProvider, words } from './paced-provider';

const shellEntries = (entries: readonly TranscriptEntry[]) =>
  entries.filter((entry): entry is ShellTranscriptEntry => entry.kind === 'shell');

/** The text of every message the provider's `index`-th request carried. */
const sentTexts = (provider: WindowedProvider, index: number) =>
  (provider.requests[index]?.messages ?? []).map((message) =>
    message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join(''),
  );

async function promptAndSettle(observer: ChatObserver, text: string): Promise<void> {
  const { operationId } = await observer.chat.prompt({ text }, BACKGROUND_CONTEXT);
  await eventually(() =>
    observer.events.some((event) => event.type === 'settled' && event.operationId === operationId),
  );
}

describe.each<Transport>(['loopback', 'websocket'])('shell commands over %s', (transport) => {
  it('! runs in the working directory: its output is in the transcript and reaches the model with the next prompt', async () => {
    const provider = windowedProvider();
    const host = await startChatHost(transport, provider);
    await writeFile(join(await projectDirectory(host), 'marker.txt'), 'here');
    const observer = await observeChat(host);

    const result = await observer.chat.shell({ command: 'ls; echo done', includeInContext: true }, BACKGROUND_CONTEXT);
    expect(result).toMatchObject({ output: 'marker.txt\ndone', exitCode: 0, timedOut: false, aborted: false });
    await eventually(() => shellEntries(observer.transcript.entries).length === 1);
    expect(shellEntries(observer.transcript.entries)[0]).toEqual({
      kind: 'shell',
      id: result.entryId,
      command: 'ls; echo done',
      includeInContext: true,
      output: 'marker.txt\ndone',
      exitCode: 0,
      signal: null,
      timedOut: false,
      aborted: false,
      truncated: false,
    });

    await promptAndSettle(observer, 'what is there?');
    const sent = sentTexts(provider, 0);
    expect(sent).toHaveLength(2);
    expect(sent[0]).toContain('$ ls; echo done\nmarker.txt\ndone');
    expect(sent[1]).toBe('what is there?');
  });

  it('!! shows its output but the model never reads it', async () => {
    const provider = windowedProvider();
    const host = await startChatHost(transport, provider);
    await projectDirectory(host);
    const observer = await observeChat(host);

    await observer.chat.shell({ command: 'echo private-output', includeInContext: false }, BACKGROUND_CONTEXT);
    await eventually(() => shellEntries(observer.transcript.entries).length === 1);
    expect(shellEntries(observer.transcript.entries)[0]).toMatchObject({
      includeInContext: false,
      output: 'private-output',
    });
    await promptAndSettle(observer, 'hello');
    expect(sentTexts(provider, 0)).toEqual(['hello']);
    expect((await sessionFileEntries(host)).find((entry) => entry.kind === 'custom')).toMatchObject({
      namespace: '@pi/chat',
      data: { type: 'shell', command: 'echo private-output' },
    });
  });

  it('a non-zero exit is recorded with its code, and the model is told it', async () => {
    const provider = windowedProvider();
    const host = await startChatHost(transport, provider);
    await projectDirectory(host);
    const observer = await observeChat(host);

    const result = await observer.chat.shell(
      { command: 'echo oops >&2; exit 3', includeInContext: true },
      BACKGROUND_CONTEXT,
    );
    expect(result).toMatchObject({ output: 'oops', exitCode: 3, signal: null });
    await promptAndSettle(observer, 'why?');
    expect(sentTexts(provider, 0)[0]).toContain('oops\n[Exit code 3.]');
  });

  it('a command past its timeout is killed with everything it started, and recorded as timed out', async () => {
    const host = await startChatHost(transport, windowedProvider());
    await projectDirectory(host);
    const observer = await observeChat(host);
    const result = await observer.chat.shell(
      { command: 'echo started; sleep 30', includeInContext: false, timeoutSeconds: 0.2 },
      BACKGROUND_CONTEXT,
    );
    expect(result).toMatchObject({ output: 'started', exitCode: null, signal: 'SIGTERM', timedOut: true });
    expect(observer.chat.shellRun.value).toBeNull();
  });

  it('cancelling the call stops the command, and what it printed is recorded as stopped', async () => {
    const host = await startChatHost(transport, windowedProvider());
    await projectDirectory(host);
    const observer = await observeChat(host);
    const { controller, context } = abortableContext();
    const call = observer.chat.shell({ command: 'echo started; sleep 30', includeInContext: true }, context);
    // Every client sees the command and its output while it runs.
    await eventually(() => observer.chat.shellRun.value?.output === 'started');
    expect(observer.chat.shellRun.value).toMatchObject({ command: 'echo started; sleep 30', includeInContext: true });
    controller.abort();
    expect((await remoteErrorOf(call)).code).toBe('cancelled');

    await eventually(() => shellEntries(observer.transcript.entries).length === 1);
    expect(shellEntries(observer.transcript.entries)[0]).toMatchObject({ output: 'started', aborted: true });
    await eventually(() => observer.chat.shellRun.value === null);
  });

  it('keeps only the tail of a huge output', async () => {
    const host = await startChatHost(transport, windowedProvider());
    await projectDirectory(host);
    const observer = await observeChat(host);
    const result = await observer.chat.shell({ command: 'seq 1 200000', includeInContext: false }, BACKGROUND_CONTEXT);
    const lines = result.output.split('\n');
    expect(result.truncated).toBe(true);
    expect(lines.at(-1)).toBe('200000');
    expect(lines.length).toBeLessThanOrEqual(SHELL_OUTPUT_LIMITS.lines);
    expect(result.output.length).toBeLessThanOrEqual(SHELL_OUTPUT_LIMITS.bytes);
  });

  it('is refused while a run is in progress, while another command runs, and when blank; nothing is recorded', async () => {
    const provider = pacedProvider(words(4), 1);
    const host = await startChatHost(transport, provider);
    await projectDirectory(host);
    const observer = await observeChat(host);
    const { operationId } = await observer.chat.prompt({ text: 'go' }, BACKGROUND_CONTEXT);
    await provider.paused;
    const duringRun = await remoteErrorOf(
      observer.chat.shell({ command: 'true', includeInContext: true }, BACKGROUND_CONTEXT),
    );
    expect(duringRun).toMatchObject({ code: 'busy', message: expect.stringContaining('The agent is working') });
    provider.resume();
    await eventually(() =>
      observer.events.some((event) => event.type === 'settled' && event.operationId === operationId),
    );

    const { controller, context } = abortableContext();
    const first = observer.chat.shell({ command: 'sleep 30', includeInContext: false }, context);
    await eventually(() => observer.chat.shellRun.value !== null);
    const second = await remoteErrorOf(
      observer.chat.shell({ command: 'true', includeInContext: false }, BACKGROUND_CONTEXT),
    );
    expect(second).toMatchObject({ code: 'busy', message: expect.stringContaining('sleep 30') });
    controller.abort();
    await remoteErrorOf(first);

    const blank = await remoteErrorOf(
      observer.chat.shell({ command: '  ', includeInContext: true }, BACKGROUND_CONTEXT),
    );
    expect(blank.code).toBe('invalid_command');
    await eventually(() => shellEntries(observer.transcript.entries).length === 1);
    expect(shellEntries(observer.transcript.entries).map((entry) => entry.command)).toEqual(['sleep 30']);
  });

  it('a run started while a ! command runs keeps its messages together: the output is recorded after it', async () => {
    const provider = pacedProvider(words(4), 1);
    const host = await startChatHost(transport, provider);
    const project = await projectDirectory(host);
    const observer = await observeChat(host);
    const shell = observer.chat.shell(
      { command: 'while [ ! -e go ]; do sleep 0.01; done; echo finished', includeInContext: true },
      BACKGROUND_CONTEXT,
    );
    await eventually(() => observer.chat.shellRun.value !== null);
    const { operationId } = await observer.chat.prompt({ text: 'meanwhile' }, BACKGROUND_CONTEXT);
    await provider.paused;
    await writeFile(join(project, 'go'), '');
    await eventually(() => observer.chat.shellRun.value?.output === 'finished');
    provider.resume();

    const result = await shell;
    await eventually(() => shellEntries(observer.transcript.entries).length === 1);
    const kinds = observer.transcript.entries.map((entry) => entry.kind);
    expect(kinds).toEqual(['run_started', 'user', 'assistant', 'run_settled', 'shell']);
    expect(observer.transcript.entries.find((entry) => entry.kind === 'run_settled')).toMatchObject({ operationId });
    expect(result.output).toBe('finished');
  });

  it('fails with spawn_failed, naming the directory, when the working directory is gone', async () => {
    const host = await startChatHost(transport, windowedProvider());
    const observer = await observeChat(host);
    const failed = await remoteErrorOf(
      observer.chat.shell({ command: 'true', includeInContext: true }, BACKGROUND_CONTEXT),
    );
    expect(failed).toMatchObject({
      code: 'spawn_failed',
      message: `The working directory ${join(host.directory, 'project')} does not exist`,
    });
    expect(observer.chat.shellRun.value).toBeNull();
  });

  it('a recorded command is still there when the session is opened again', async () => {
    const directory = await sessionDirectory();
    const first = await startChatHost(transport, windowedProvider(), { directory });
    await projectDirectory(first);
    const observer = await observeChat(first);
    await observer.chat.shell({ command: 'echo kept', includeInContext: true }, BACKGROUND_CONTEXT);
    await observer.chat.shell({ command: 'echo also kept', includeInContext: false }, BACKGROUND_CONTEXT);
    await first.close();

    const reopened = await observeChat(await startChatHost(transport, windowedProvider(), { directory }));
    await eventually(() => reopened.transcript.complete);
    expect(
      shellEntries(reopened.transcript.entries).map(({ command, includeInContext, output }) => ({
        command,
        includeInContext,
        output,
      })),
    ).toEqual([
      { command: 'echo kept', includeInContext: true, output: 'kept' },
      { command: 'echo also kept', includeInContext: false, output: 'also kept' },
    ]);
  });
});
