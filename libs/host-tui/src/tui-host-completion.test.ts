import { afterEach, describe, expect, it } from 'vitest';
import {
  BACKGROUND_CONTEXT,
  withAbortSignal,
  type CodingAgentTuiPluginContext,
  type CompletionSource,
} from '@pi/plugin-api';
import {
  Catalog,
  KNOWN_MODELS,
  TRANSPORTS,
  createCatalog,
  startRpcFixture,
  type TransportKind,
} from '@pi/test-support';
import { startTestTuiHost, type TestTuiHost } from './testing';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const KEYS = { up: '\x1b[A', down: '\x1b[B', tab: '\t', enter: '\r', escape: '\x1b' } as const;
const NAMES = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet', 'kilo'];

type Facet = (context: CodingAgentTuiPluginContext) => void;

/** A TUI host over `transport` to a host serving the fixture catalog, running `facets`. */
async function startHost(transport: TransportKind, facets: Record<string, Facet>): Promise<TestTuiHost> {
  const rpc = await startRpcFixture(transport, { provide: (registry) => registry.provide(Catalog, createCatalog()) });
  cleanups.push(() => rpc.close());
  const client = await rpc.connect();
  const tui = await startTestTuiHost({ facets, client, columns: 80, rows: 30 });
  cleanups.push(() => tui.stop());
  return tui;
}

/** Eleven commands (`/alpha` … `/kilo`) that record their runs, and a prompt handler that records what is sent. */
function commandsFacet(runs: string[], sent: string[]): Facet {
  return (context) => {
    for (const name of NAMES) {
      context.commands.register({
        id: `demo.${name}`,
        slash: name,
        description: `the ${name} command`,
        run: (args) => void runs.push(`${name}:${args}`),
      });
    }
    context.commands.register({
      id: 'chat.interrupt',
      description: 'interrupt',
      run: () => void runs.push('interrupt'),
    });
    context.editor.onSubmit((text) => void sent.push(text));
  };
}

/** The menu's rows as shown: the highlighted one starts with `›`. */
const highlighted = (screen: string) => /^› (\/\S+)/m.exec(screen)?.[1];

describe.each(TRANSPORTS)('the completion menu of the TUI host over %s', (transport) => {
  it('typing / shows every command in a scrolling menu; the arrows move through it and scroll it', async () => {
    const tui = await startHost(transport, { '@t/demo': commandsFacet([], []) });
    await tui.type('/');
    const screen = tui.screen();
    // The host's own /diagnostics, /exit, /help, /hotkeys, /quit and /reload are commands too: 17 in all, 8 shown.
    expect(highlighted(screen)).toBe('/alpha');
    expect(screen).toMatch(/ {2}\/bravo +the bravo command/);
    expect(screen).toContain('↓ 9 more');
    for (let step = 0; step < 8; step++) await tui.type(KEYS.down);
    expect(highlighted(tui.screen())).toBe('/golf');
    expect(tui.screen()).not.toContain('/alpha');
    expect(tui.screen()).toContain('↑ 1 more · ↓ 8 more');
    await tui.type(KEYS.up.repeat(9));
    expect(highlighted(tui.screen())).toBe('/reload');
  });

  it('the arrows never walk the prompt history while the menu is open; Enter runs the highlighted command', async () => {
    const runs: string[] = [];
    const sent: string[] = [];
    const tui = await startHost(transport, { '@t/demo': commandsFacet(runs, sent) });
    await tui.type('an earlier prompt\r');
    await tui.type('/');
    await tui.type(KEYS.up + KEYS.up + KEYS.down);
    expect(tui.screen()).not.toContain('an earlier prompt');
    expect(highlighted(tui.screen())).toBe('/reload');
    await tui.type('de');
    expect(highlighted(tui.screen())).toBe('/delta');
    await tui.type(KEYS.enter);
    expect(runs).toEqual(['delta:']);
    expect(sent).toEqual(['an earlier prompt']);
    expect(highlighted(tui.screen())).toBeUndefined();
  });

  it('Tab inserts the command to add arguments; Escape closes the menu, keeps the text and interrupts nothing', async () => {
    const runs: string[] = [];
    const tui = await startHost(transport, { '@t/demo': commandsFacet(runs, []) });
    await tui.type('/ec');
    await tui.type(KEYS.escape);
    expect(highlighted(tui.screen())).toBeUndefined();
    expect(tui.screen()).toMatch(/^\/ec/m);
    expect(runs).toEqual([]);
    await tui.type('h');
    expect(highlighted(tui.screen())).toBe('/echo');
    await tui.type(KEYS.tab + 'hello' + KEYS.enter);
    expect(runs).toEqual(['echo:hello']);
  });

  it('a dialog takes the keys and hides the menu; the menu is back once the dialog closes', async () => {
    const answers: Array<string | undefined> = [];
    const tui = await startHost(transport, {
      '@t/demo': commandsFacet([], []),
      '@t/ask': (context) => {
        context.commands.register({
          id: 'ask.fruit',
          description: 'ask',
          run: async () => void answers.push(await context.ui.select('Pick a fruit', ['apple', 'banana'])),
        });
        context.keybindings.bind('ctrl+y', 'ask.fruit');
      },
    });
    await tui.type('/ec');
    expect(highlighted(tui.screen())).toBe('/echo');
    await tui.type('\x19');
    await tui.waitForScreen((screen) => screen.includes('Pick a fruit'));
    expect(highlighted(tui.screen())).toBeUndefined();
    await tui.type(KEYS.down + KEYS.enter);
    await tui.waitForScreen((screen) => !screen.includes('Pick a fruit'));
    expect(answers).toEqual(['banana']);
    expect(highlighted(tui.screen())).toBe('/echo');
  });

  it('a facet adds a completion source that asks the session; Tab inserts its answer, and removing the source ends it', async () => {
    let remove: (() => void) | undefined;
    const source = (context: CodingAgentTuiPluginContext): CompletionSource => ({
      trigger: '#',
      debounceMs: 10,
      async complete(query, signal) {
        const catalog = await context.use(Catalog);
        await catalog.refresh(withAbortSignal(signal, BACKGROUND_CONTEXT));
        return KNOWN_MODELS.filter((model) => model.modelId.startsWith(query)).map((model) => ({
          insert: `#${model.provider}/${model.modelId} `,
          description: 'a model',
        }));
      },
    });
    const tui = await startHost(transport, {
      '@t/models': (context) => void (remove = context.completions.add(source(context))),
    });
    await tui.type('use #s');
    await tui.waitForScreen((screen) => screen.includes('› #local/small'));
    await tui.type(KEYS.tab);
    expect(tui.screen()).toContain('use #local/small ');
    remove?.();
    await tui.type('#l');
    expect(tui.screen()).not.toContain('#local/large');
  });
});
