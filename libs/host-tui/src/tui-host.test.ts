import { err, ok, type Result } from 'neverthrow';
import { afterEach, describe, expect, it } from 'vitest';
import { ProvidingSide, runFacets, type RunnableFacet } from '@pi/host-kit';
import { throwEffectFailure } from '@pi/host-kit/testing';
import type { CodingAgentTuiPluginContext, ProvidingPluginContext } from '@pi/plugin-api';
import { Catalog, createCatalog, eventually, serveHost, type HostTransport } from '@pi/test-support';
import { createRpcClient, tokenAuthentication, type RpcClient } from '@pi/transport-trpc';
import { DIALOG_ARMING_MS } from './dialogs';
import { createVirtualTerminal, type VirtualTerminal } from './testing';
import { startTuiHost, type TuiHost, type TuiHostOptions } from './tui-host';

const TOKEN = 'tui-token';
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

type TuiFacet = (context: CodingAgentTuiPluginContext) => void | Promise<void>;

interface Fixture {
  readonly host: TuiHost;
  readonly terminal: VirtualTerminal;
  readonly transport: HostTransport;
  readonly client: RpcClient;
  readonly clock: { now: number };
  /** Types text (and named keys as raw sequences), lets the decoder and scheduler run, and paints. */
  type(input: string): Promise<void>;
  screen(): string;
  quits: number;
}

async function startFixture(
  facets: Record<string, TuiFacet>,
  size = { columns: 80, rows: 24 },
  hostOptions: Pick<TuiHostOptions, 'externalEditor' | 'draft'> = {},
): Promise<Fixture> {
  const side = new ProvidingSide();
  const providers = await runFacets(
    [
      {
        id: '@t/catalog',
        config: null,
        facet: (context: ProvidingPluginContext) => context.provide(Catalog, createCatalog()),
      },
    ],
    (scope, facet) => side.contextFor(scope, facet.id, facet.config),
    throwEffectFailure,
  );
  const rpc = side.expose({
    authenticate: tokenAuthentication(TOKEN, { principal: 't', claims: {} }),
    keepAlive: false,
  });
  const transport = await serveHost('loopback', rpc);
  const client = createRpcClient({
    socketFactory: transport.socketFactory,
    connectionParams: { token: TOKEN },
    reconnect: { minDelayMs: 10, maxDelayMs: 20 },
    heartbeat: false,
  });
  await client.whenConnected();
  const terminal = createVirtualTerminal(size.columns, size.rows);
  const clock = { now: 10_000 };
  const fixture = { quits: 0 } as { quits: number } & Partial<Fixture>;
  const loaded: RunnableFacet<CodingAgentTuiPluginContext>[] = Object.entries(facets).map(([id, facet]) => ({
    id,
    config: null,
    facet,
  }));
  const host = (
    await startTuiHost({
      facets: loaded,
      client,
      terminal,
      label: '~/project',
      now: () => clock.now,
      onQuit: () => (fixture.quits += 1),
      ...hostOptions,
    })
  )._unsafeUnwrap();
  cleanups.push(async () => {
    await host.stop();
    client.close();
    rpc.close();
    await transport.close();
    await providers._unsafeUnwrap().stop();
  });
  return Object.assign(fixture, {
    host,
    terminal,
    transport,
    client,
    clock,
    async type(input: string) {
      clock.now += DIALOG_ARMING_MS + 1;
      terminal.input.write(input);
      await new Promise((resolve) => setTimeout(resolve, 20));
      host.flush();
    },
    screen: () => host.screen.text().join('\n'),
  }) as Fixture;
}

describe('the TUI host', () => {
  it('sends what is typed on Enter to the submit handler and clears the editor', async () => {
    const submitted: string[] = [];
    const fixture = await startFixture({
      '@t/chat': (context) => void context.editor.onSubmit((text) => void submitted.push(text)),
    });
    await fixture.type('hello 🐢');
    expect(fixture.screen()).toContain('hello 🐢');
    await fixture.type('\r');
    expect(submitted).toEqual(['hello 🐢']);
    expect(fixture.screen()).not.toContain('hello 🐢');
  });

  it('tells the submit handler which key sent: Enter submits, Alt+Enter asks for a follow-up', async () => {
    const submitted: string[] = [];
    const fixture = await startFixture({
      '@t/chat': (context) =>
        void context.editor.onSubmit((text, _context, action) => void submitted.push(`${action}:${text}`)),
    });
    await fixture.type('now\r');
    await fixture.type('later\x1b\r');
    expect(submitted).toEqual(['submit:now', 'followUp:later']);
  });

  it('editor.send hands text to the submit handler as a prompt, never as a slash command', async () => {
    const submitted: string[] = [];
    const runs: string[] = [];
    const fixture = await startFixture({
      '@t/chat': (context) => {
        context.editor.onSubmit((text, _context, action) => void submitted.push(`${action}:${text}`));
        context.commands.register({
          id: 'demo.expand',
          slash: 'expand',
          description: 'expand',
          run: async (args) => {
            runs.push(args);
            await context.editor.send(`/expand was ${args}`);
            await context.editor.send('later', 'followUp');
          },
        });
      },
    });
    await fixture.type('/expand it\r');
    await eventually(() => submitted.length === 2);
    expect(submitted).toEqual(['submit:/expand was it', 'followUp:later']);
    expect(runs).toEqual(['it']);
  });

  it('Alt+Up runs the chat.dequeue command; facets read bound keys for their hints', async () => {
    const runs: string[] = [];
    const hints: string[] = [];
    const fixture = await startFixture({
      '@t/chat': (context) => {
        context.commands.register({ id: 'chat.dequeue', description: 'dequeue', run: () => void runs.push('dequeue') });
        hints.push(context.ui.keyHint('dequeue'), context.ui.keyHint('followUp'), context.ui.keyHint('no-such'));
      },
    });
    await fixture.type('\x1b[1;3A');
    expect(runs).toEqual(['dequeue']);
    expect(hints).toEqual(['alt+up', 'alt+enter', '']);
  });

  it('Ctrl+J inserts a newline instead of sending', async () => {
    const submitted: string[] = [];
    const fixture = await startFixture({
      '@t/chat': (context) => void context.editor.onSubmit((text) => void submitted.push(text)),
    });
    await fixture.type('one\ntwo\r');
    expect(submitted).toEqual(['one\ntwo']);
  });

  it('runs a slash command with its arguments, names an unknown one (keeping it to mend), and sends an unknown one with arguments to the model', async () => {
    const runs: string[] = [];
    const submitted: string[] = [];
    const fixture = await startFixture({
      '@t/demo': (context) => {
        context.commands.register({
          id: 'demo.echo',
          slash: 'echo',
          description: 'echo',
          run: (args) => void runs.push(args),
        });
        context.editor.onSubmit((text) => void submitted.push(text));
      },
    });
    await fixture.type('/echo a b\r');
    expect(runs).toEqual(['a b']);
    await fixture.type('/nope\r');
    expect(fixture.screen()).toContain('Unknown command /nope');
    expect(fixture.screen()).toMatch(/^\/nope/m);
    await fixture.type('\x03');
    await fixture.type('/tool read {"path":"a.txt"}\r');
    expect(submitted).toEqual(['/tool read {"path":"a.txt"}']);
    expect(runs).toEqual(['a b']);
  });

  it('a select dialog filters as the user types and returns the pick; Esc cancels', async () => {
    const picks: Array<string | undefined> = [];
    const fixture = await startFixture({
      '@t/demo': (context) =>
        void context.commands.register({
          id: 'demo.pick',
          slash: 'pick',
          description: 'pick',
          run: async () => void picks.push(await context.ui.select('Pick a fruit', ['apple', 'banana', 'cherry'])),
        }),
    });
    await fixture.type('/pick\r');
    expect(fixture.screen()).toContain('Pick a fruit');
    await fixture.type('an');
    expect(fixture.screen()).toContain('› banana');
    expect(fixture.screen()).not.toContain('cherry');
    await fixture.type('\r');
    await eventually(() => picks.length === 1);
    expect(picks).toEqual(['banana']);
    await fixture.type('/pick\r');
    await fixture.type('\x1b');
    await eventually(() => picks.length === 2);
    expect(picks[1]).toBeUndefined();
    expect(fixture.screen()).not.toContain('Pick a fruit');
  });

  it('a masked input shows a bullet per character and resolves with the text typed or pasted', async () => {
    let answer: string | undefined;
    const fixture = await startFixture({
      '@t/demo': (context) => {
        void context.ui.input('API key', 'paste it', { masked: true }).then((value) => (answer = value));
      },
    });
    await fixture.type('sk-');
    await fixture.type('\x1b[200~a1é\x1b[201~');
    fixture.host.flush();
    expect(fixture.screen()).toContain('••••••');
    expect(fixture.screen()).not.toContain('sk-');
    await fixture.type('\r');
    await eventually(() => answer !== undefined);
    expect(answer).toBe('sk-a1é');
  });

  it('a dialog closes when its signal aborts', async () => {
    const controller = new AbortController();
    let answer: string | undefined = 'pending';
    const fixture = await startFixture({
      '@t/demo': (context) => {
        void context.ui.input('Your name', 'type it', { signal: controller.signal }).then((value) => (answer = value));
      },
    });
    expect(fixture.screen()).toContain('Your name');
    controller.abort();
    await eventually(() => answer === undefined);
    fixture.host.flush();
    expect(fixture.screen()).not.toContain('Your name');
  });

  it('Ctrl+G hands the prompt to the external editor, reads no keys meanwhile, and takes back what was saved', async () => {
    const submitted: string[] = [];
    let finish: (saved: Result<string, string>) => void = () => undefined;
    const given: string[] = [];
    const fixture = await startFixture(
      { '@t/chat': (context) => void context.editor.onSubmit((text) => void submitted.push(text)) },
      undefined,
      {
        externalEditor: (text) => {
          given.push(text);
          return new Promise((resolve) => (finish = resolve));
        },
      },
    );
    await fixture.type('fix the');
    await fixture.type('\x07');
    expect(given).toEqual(['fix the']);
    await fixture.type('typed while away');
    expect(fixture.screen()).not.toContain('typed while away');
    finish(ok('fix the build\nand test it\n'));
    await eventually(() => fixture.screen().includes('and test it'));
    expect(fixture.screen()).not.toContain('typed while away');
    await fixture.type('\r');
    expect(submitted).toEqual(['fix the build\nand test it']);
  });

  it('an external editor that fails or is missing leaves the prompt as it was and says why', async () => {
    const fixture = await startFixture({}, undefined, {
      externalEditor: async () => err('vim exited with code 1: the prompt is unchanged'),
    });
    await fixture.type('keep me');
    await fixture.type('\x07');
    await eventually(() => fixture.screen().includes('vim exited with code 1'));
    expect(fixture.screen()).toContain('keep me');

    const without = await startFixture({});
    await without.type('still here');
    await without.type('\x07');
    expect(without.screen()).toContain('No external editor here');
    expect(without.screen()).toContain('still here');
  });

  it('starts with the draft the previous host held, and hands its own over (nothing typed is lost in a switch)', async () => {
    const submitted: string[] = [];
    const fixture = await startFixture(
      { '@t/chat': (context) => void context.editor.onSubmit((text) => void submitted.push(text)) },
      undefined,
      { draft: 'typed while switching' },
    );
    expect(fixture.screen()).toContain('typed while switching');
    await fixture.type(' and more');
    expect(fixture.host.draft()).toBe('typed while switching and more');
    await fixture.type('\r');
    expect(submitted).toEqual(['typed while switching and more']);
    expect(fixture.host.draft()).toBe('');
  });

  it('keeps in the editor what was typed in the moment before a dialog could take keys', async () => {
    const answers: Array<string | undefined> = [];
    const fixture = await startFixture({
      '@t/demo': (context) =>
        void context.commands.register({
          id: 'demo.ask',
          slash: 'ask',
          description: 'ask',
          run: async () => void answers.push(await context.ui.input('A title', 'type it')),
        }),
    });
    await fixture.type('/ask\r');
    expect(fixture.screen()).toContain('A title');
    // No time passes: these keys come before the dialog is armed.
    fixture.terminal.input.write('early words');
    await new Promise((resolve) => setTimeout(resolve, 20));
    await fixture.type('x\r');
    await eventually(() => answers.length === 1);
    expect(answers).toEqual(['x']);
    expect(fixture.host.draft()).toBe('early words');
  });

  it('/quit and /exit quit; /hotkeys lists the keys alone', async () => {
    const fixture = await startFixture({}, { columns: 80, rows: 40 });
    await fixture.type('/quit\r');
    await fixture.type('/exit\r');
    expect(fixture.quits).toBe(2);
    await fixture.type('/hotkeys\r');
    expect(fixture.screen()).toMatch(/ctrl\+g +edit the prompt/);
    expect(fixture.screen()).not.toContain('Commands');
  });

  it('copyToClipboard writes the text as an OSC 52 sequence, base64 and all', async () => {
    let copy: (text: string) => void = () => undefined;
    const fixture = await startFixture({ '@t/demo': (context) => void (copy = context.ui.copyToClipboard) });
    copy('héllo\nworld');
    expect(fixture.terminal.written()).toContain(`\x1b]52;c;${Buffer.from('héllo\nworld').toString('base64')}\x07`);
  });

  it('Ctrl+C clears a draft, and twice on an empty editor quits', async () => {
    const fixture = await startFixture({});
    await fixture.type('draft');
    await fixture.type('\x03');
    expect(fixture.screen()).not.toContain('draft');
    expect(fixture.quits).toBe(0);
    fixture.clock.now += 100;
    fixture.terminal.input.write('\x03');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(fixture.quits).toBe(1);
  });

  it('while disconnected it says so, keeps what it showed, and refuses commands that need the session', async () => {
    const runs: string[] = [];
    const fixture = await startFixture({
      '@t/demo': (context) => {
        context.transcript.upsert('entry-1', { render: () => ['an earlier answer'] });
        context.commands.register({
          id: 'demo.live',
          slash: 'live',
          description: 'needs the session',
          needsSession: true,
          run: () => void runs.push('ran'),
        });
      },
    });
    await fixture.transport.stop();
    await eventually(() => fixture.client.connection.value.status !== 'connected');
    await fixture.type('/live\r');
    expect(runs).toEqual([]);
    const screen = fixture.screen();
    expect(screen).toContain('an earlier answer');
    expect(screen).toContain('Disconnected from the session');
    expect(screen).toContain('/live needs it');
    await fixture.transport.restore();
    await eventually(() => fixture.client.connection.value.status === 'connected');
    fixture.host.flush();
    expect(fixture.screen()).toContain('● connected');
    await fixture.type('/live\r');
    expect(runs).toEqual(['ran']);
  });

  it('lays out again at 80×24, smaller, and back, with wide text in the right columns', async () => {
    const fixture = await startFixture({
      '@t/demo': (context) =>
        context.transcript.upsert('a', { render: (width) => [`你好🐢 ${'x'.repeat(Math.max(0, width - 7))}`] }),
    });
    const row = () => fixture.host.screen.text().find((line) => line.startsWith('你好'));
    expect(row()).toBe(`你好🐢 ${'x'.repeat(73)}`);
    fixture.terminal.resize(40, 12);
    await new Promise((resolve) => setTimeout(resolve, 50));
    fixture.host.flush();
    expect(fixture.host.screen.text()).toHaveLength(12);
    expect(row()).toBe(`你好🐢 ${'x'.repeat(33)}`);
    fixture.terminal.resize(80, 24);
    await new Promise((resolve) => setTimeout(resolve, 50));
    fixture.host.flush();
    expect(row()).toBe(`你好🐢 ${'x'.repeat(73)}`);
  });

  it('a slot widget that throws disappears and the footer stays', async () => {
    const fixture = await startFixture({
      '@t/bad': (context) =>
        void context.slots.add('footer', {
          render: () => {
            throw new Error('broken widget');
          },
        }),
      '@t/good': (context) => void context.slots.add('footer', { render: () => ['model: offline/echo'] }),
    });
    expect(fixture.screen()).toContain('model: offline/echo');
    expect(fixture.host.failures()).toEqual(['@t/bad: footer widget threw: broken widget']);
  });

  it('/help lists the slash commands and the keys, wrapped at 80 columns, with no internal ids', async () => {
    const long = 'Say it back, word for word, however long it is, and then say it once more, a little slower';
    const fixture = await startFixture(
      {
        '@t/demo': (context) => {
          context.commands.register({ id: 'demo.echo', slash: 'echo', description: long, run: () => undefined });
          context.commands.register({ id: 'demo.hidden', description: 'only by key', run: () => undefined });
          context.commands.register({ id: 'demo.unbound', description: 'not typeable', run: () => undefined });
          context.keybindings.bind('ctrl+y', 'demo.hidden');
        },
      },
      { columns: 80, rows: 50 },
    );
    await fixture.type('/help\r');
    const screen = fixture.screen();
    const rows = screen.split('\n');
    expect(rows.findIndex((row) => row.trim() === 'Commands')).toBeLessThan(
      rows.findIndex((row) => row.trim() === 'Keys'),
    );
    expect(screen).toMatch(/\/echo +Say it back, word for word/);
    expect(screen).toContain('a little slower');
    expect(screen).not.toContain('…');
    expect(screen).toContain('/help');
    expect(screen).toMatch(/ctrl\+y +only by key/);
    expect(screen).not.toMatch(/demo\.(hidden|unbound|echo)|not typeable/);
    expect(screen).toMatch(/ctrl\+g +edit the prompt in \$VISUAL or \$EDITOR/);
    expect(screen).toContain('ctrl+j, shift+enter');
    expect(screen).toMatch(/alt\+enter +queue a follow-up/);
    expect(screen).toContain('alt+up');
  });

  it('a burst of changes costs one frame', async () => {
    let setText: ((text: string) => void) | undefined;
    const fixture = await startFixture({ '@t/demo': (context) => void (setText = context.editor.setText) });
    const before = fixture.host.frames;
    for (let index = 0; index < 500; index++) setText?.(`draft ${index}`);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(fixture.host.frames - before).toBe(1);
    expect(fixture.screen()).toContain('draft 499');
  });
});
