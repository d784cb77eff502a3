import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { windowedProvider, textAnswer } from '@pi/agent/testing';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { eventually, remoteErrorOf } from '@pi/test-support';
import { observeChat, projectDirectory, startChatHost, type Transport } from './chat-host';

/** A session with one prompt answered and one `!` command, and its working directory. */
async function sessionWithHistory(transport: Transport) {
  const host = await startChatHost(transport, windowedProvider({ answer: () => textAnswer('the <b>answer</b>') }));
  const project = await projectDirectory(host);
  const observer = await observeChat(host);
  await observer.chat.shell({ command: 'echo from-the-shell', includeInContext: true }, BACKGROUND_CONTEXT);
  const { operationId } = await observer.chat.prompt({ text: 'a <script>question</script>' }, BACKGROUND_CONTEXT);
  await eventually(() =>
    observer.events.some((event) => event.type === 'settled' && event.operationId === operationId),
  );
  const sessionId = (await observer.chat.info(BACKGROUND_CONTEXT)).sessionId;
  return { chat: observer.chat, project, sessionId };
}

describe.each<Transport>(['loopback', 'websocket'])('exportHtml over %s', (transport) => {
  it('writes the session as one page beside the project by default, named after the session', async () => {
    const { chat, project, sessionId } = await sessionWithHistory(transport);
    const result = await chat.exportHtml({}, BACKGROUND_CONTEXT);
    const path = join(project, `pi-session-${sessionId}.html`);
    expect(result).toMatchObject({ path, entries: expect.any(Number) });
    const html = await readFile(path, 'utf8');
    expect(result.bytes).toBe(Buffer.byteLength(html));
    expect(html).toContain('a &lt;script&gt;question&lt;/script&gt;');
    expect(html).toContain('the &lt;b&gt;answer&lt;/b&gt;');
    expect(html).toContain('$ echo from-the-shell');
    expect(html).not.toContain('<script>');
  });

  it('writes a relative path in the working directory, and an absolute one where it says', async () => {
    const { chat, project } = await sessionWithHistory(transport);
    await mkdir(join(project, 'out'));
    expect((await chat.exportHtml({ path: 'out/page.html' }, BACKGROUND_CONTEXT)).path).toBe(
      join(project, 'out/page.html'),
    );
    const absolute = join(project, 'elsewhere.html');
    expect((await chat.exportHtml({ path: absolute }, BACKGROUND_CONTEXT)).path).toBe(absolute);
    await readFile(join(project, 'out/page.html'), 'utf8');
  });

  it('leaves an existing file alone unless asked to replace it', async () => {
    const { chat, project } = await sessionWithHistory(transport);
    const path = join(project, 'taken.html');
    await writeFile(path, 'mine');
    const refused = await remoteErrorOf(chat.exportHtml({ path: 'taken.html' }, BACKGROUND_CONTEXT));
    expect(refused).toMatchObject({ code: 'file_exists', message: `${path} exists already` });
    expect(await readFile(path, 'utf8')).toBe('mine');
    await chat.exportHtml({ path: 'taken.html', overwrite: true }, BACKGROUND_CONTEXT);
    expect(await readFile(path, 'utf8')).toContain('<!doctype html>');
  });

  it('says which directory is missing, or that the path is a directory, and writes nothing', async () => {
    const { chat, project } = await sessionWithHistory(transport);
    const missing = await remoteErrorOf(chat.exportHtml({ path: 'no/such/dir/page.html' }, BACKGROUND_CONTEXT));
    expect(missing).toMatchObject({
      code: 'not_writable',
      message: `The directory ${join(project, 'no/such/dir')} does not exist`,
    });
    await mkdir(join(project, 'a-directory'));
    const directory = await remoteErrorOf(
      chat.exportHtml({ path: 'a-directory', overwrite: true }, BACKGROUND_CONTEXT),
    );
    expect(directory).toMatchObject({
      code: 'not_writable',
      message: `${join(project, 'a-directory')} is a directory`,
    });
    const blank = await remoteErrorOf(chat.exportHtml({ path: '   ' }, BACKGROUND_CONTEXT));
    expect(blank.code).toBe('invalid_argument');
  });
});
