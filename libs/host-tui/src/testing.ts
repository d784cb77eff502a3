import { PassThrough } from 'node:stream';
import { err, ok } from 'neverthrow';
import { BACKGROUND_CONTEXT } from '@pi/context';
import {
  Views,
  type CodingAgentTuiPluginContext,
  type JsonValue,
  type ViewDelta,
  type ViewRecord,
} from '@pi/plugin-api';
import { createRemoteEvents, createRemoteState } from '@pi/remote';
import { startRpcFixture, type TransportKind } from '@pi/test-support';
import type { RpcClient } from '@pi/transport-trpc';
import { DIALOG_ARMING_MS } from './dialogs';
import type { ExternalEditor } from './external-editor';
import type { TerminalIO } from './terminal-screen';
import { startTuiHost, type TuiHost } from './tui-host';
import type { TuiFacetSource } from './tui-reload';

/** A terminal in memory: write keys to `input`, read what was written from `written()`, resize at will. */
export interface VirtualTerminal extends TerminalIO {
  readonly input: PassThrough;
  readonly output: PassThrough & { columns: number; rows: number; isTTY: boolean };
  /** Everything the host wrote so far. */
  written(): string;
  resize(columns: number, rows: number): void;
}

export function createVirtualTerminal(columns = 80, rows = 24): VirtualTerminal {
  const input = new PassThrough();
  const output = Object.assign(new PassThrough(), { columns, rows, isTTY: true });
  let bytes = '';
  output.on('data', (chunk: Buffer) => (bytes += chunk.toString('utf8')));
  return {
    input,
    output,
    written: () => bytes,
    resize(nextColumns, nextRows) {
      output.columns = nextColumns;
      output.rows = nextRows;
      output.emit('resize');
    },
  };
}

/** A TUI host on a virtual terminal, attached to `client`, with a clock the test moves. */
export interface TestTuiHost {
  readonly host: TuiHost;
  readonly terminal: VirtualTerminal;
  readonly clock: { now: number };
  /** Writes raw input (text, `\r` for Enter, `\x1b` for Esc, `\x0c` for Ctrl+L…) past the dialog arming delay,
   *  lets it be decoded and handled, and paints. */
  type(input: string): Promise<void>;
  /** The screen's text, rows joined by newlines. */
  screen(): string;
  /**
   * The screen once `accept` holds for it: checked now and after every paint the host makes at its own pace (no
   * forced repaints, no polling). Rejects after `timeoutMs` with the screen as it was.
   */
  waitForScreen(accept: (screen: string) => boolean, timeoutMs?: number): Promise<string>;
  readonly quits: number;
  stop(): Promise<void>;
}

export async function startTestTuiHost(options: {
  readonly facets: Record<string, (context: CodingAgentTuiPluginContext) => void | Promise<void>>;
  readonly client: RpcClient;
  readonly columns?: number;
  readonly rows?: number;
  /** What `context.session.switchTo` calls; absent: switching is refused as for a TUI attached by address. */
  readonly switchSession?: (sessionId: string) => Promise<void>;
  /** What Ctrl+G runs on the prompt; absent as in a host without one. */
  readonly externalEditor?: ExternalEditor;
  /** The facets `/reload` runs instead, by module generation (a string: the reason they cannot be read). */
  readonly reloadFacets?: (
    generation: number,
  ) => Record<string, (context: CodingAgentTuiPluginContext) => void | Promise<void>> | string;
  /** How the TUI names itself to the session's other clients (default `user@host`). */
  readonly presenceName?: string;
}): Promise<TestTuiHost> {
  const terminal = createVirtualTerminal(options.columns ?? 80, options.rows ?? 24);
  const clock = { now: 10_000 };
  let quits = 0;
  const started = await startTuiHost({
    facets: Object.entries(options.facets).map(([id, facet]) => ({ id, config: null, facet })),
    client: options.client,
    terminal,
    label: 'test',
    now: () => clock.now,
    onQuit: () => (quits += 1),
    switchSession: options.switchSession,
    externalEditor: options.externalEditor,
    ...(options.reloadFacets === undefined ? {} : { reloadFacets: testReloadFacets(options.reloadFacets) }),
    ...(options.presenceName === undefined ? {} : { presenceName: options.presenceName }),
  });
  if (started.isErr()) throw new Error(started.error.message);
  const host = started.value;
  return {
    host,
    terminal,
    clock,
    async type(input) {
      clock.now += DIALOG_ARMING_MS + 1;
      terminal.input.write(input);
      await new Promise((resolve) => setTimeout(resolve, 20));
      host.flush();
    },
    screen: () => host.screen.text().join('\n'),
    waitForScreen: (accept, timeoutMs = SCREEN_WAIT_MS) => waitForPaint(host, terminal, accept, timeoutMs),
    get quits() {
      return quits;
    },
    stop: () => host.stop(),
  };
}

/** A reload's TUI facets from a test's function, as the app's plugin set source would hand them over. */
function testReloadFacets(
  read: (generation: number) => Record<string, (context: CodingAgentTuiPluginContext) => void | Promise<void>> | string,
): TuiFacetSource {
  return async (generation) => {
    const facets = read(generation);
    if (typeof facets === 'string') return err(facets);
    return ok(Object.entries(facets).map(([id, facet]) => ({ id, config: null, facet })));
  };
}

/** How long `waitForScreen` waits by default: far beyond a paint on a loaded machine, within a test's timeout. */
const SCREEN_WAIT_MS = 20_000;

function waitForPaint(
  host: TuiHost,
  terminal: VirtualTerminal,
  accept: (screen: string) => boolean,
  timeoutMs: number,
): Promise<string> {
  const screen = () => host.screen.text().join('\n');
  return new Promise((resolve, reject) => {
    const check = () => {
      const now = screen();
      if (!accept(now)) return;
      done();
      resolve(now);
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(`The screen did not show what was awaited within ${timeoutMs} ms:\n${screen()}`));
    }, timeoutMs);
    // Every paint that changes the screen writes to the terminal, in several chunks: one check after them all.
    let queued = false;
    const afterWrites = () => {
      if (queued) return;
      queued = true;
      setImmediate(() => {
        queued = false;
        check();
      });
    };
    const done = () => {
      clearTimeout(timer);
      terminal.output.off('data', afterWrites);
    };
    terminal.output.on('data', afterWrites);
    check();
  });
}

/** A stand-in for a session's `views` service: a test opens, changes and closes views by hand. */
export interface ViewsStandIn {
  /** A client of the stand-in, for a test TUI host. */
  connect(): Promise<RpcClient>;
  /** Every `show` call: the components a TUI said it draws. */
  readonly shown: string[][];
  openView(viewId: string, component: string, state: JsonValue, options?: { durable?: boolean }): void;
  setState(viewId: string, state: JsonValue): void;
  close(viewId: string): void;
}

/**
 * Serves a views service over `transport`; `onMessage` answers each `view_message` (a throw is the caller's
 * refusal). `stop` closes it.
 */
export async function startViewsStandIn(
  transport: TransportKind,
  onMessage: (viewId: string, message: JsonValue) => void,
): Promise<ViewsStandIn & { stop(): Promise<void> }> {
  const open = createRemoteState<ViewRecord[]>([]);
  const deltas = createRemoteEvents<ViewDelta>();
  const shown: string[][] = [];
  const records = new Map<string, ViewRecord>();
  let version = 0;
  const rpc = await startRpcFixture(transport, {
    provide: (registry) =>
      registry.provide(Views, {
        open,
        deltas,
        async message(viewId, message) {
          onMessage(viewId, message);
        },
        async show(components) {
          shown.push(components);
        },
      }),
  });
  return {
    connect: () => rpc.connect(),
    shown,
    openView(viewId, component, state, options = {}) {
      const durable = options.durable ?? false;
      records.set(viewId, { viewId, component, state, to: 'all', durable, version: ++version });
      open.set([...records.values()], BACKGROUND_CONTEXT);
    },
    setState(viewId, state) {
      deltas.emit({ type: 'view_state', viewId, state, to: 'all', version: ++version }, BACKGROUND_CONTEXT);
    },
    close(viewId) {
      records.delete(viewId);
      open.set([...records.values()], BACKGROUND_CONTEXT);
      deltas.emit({ type: 'view_closed', viewId, reason: 'closed', to: 'all', version: ++version }, BACKGROUND_CONTEXT);
    },
    stop: () => rpc.close(),
  };
}
