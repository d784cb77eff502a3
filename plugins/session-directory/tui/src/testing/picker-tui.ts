import { startTestTuiHost, type TestTuiHost } from '@pi/host-tui/testing';
import { SessionPicker } from '@pi/session-directory';
import { eventually, startRpcFixture, type TransportKind } from '@pi/test-support';
import { sessionDirectoryTuiFacet } from '../session-tui-facet';
import { standInPicker, type StandInPicker } from './stand-in-picker';

export interface PickerTui {
  readonly tui: TestTuiHost;
  readonly picker: StandInPicker;
  /** The session ids the TUI asked the application to switch to. */
  readonly switched: string[];
  /** Waits until the painted screen contains `text`. */
  shows(text: string): Promise<void>;
  /** Waits until the painted screen no longer contains `text`. */
  hides(text: string): Promise<void>;
}

export interface PickerTuiOptions {
  /** The session's picker (default: a stand-in with three sessions); null: the session serves none. */
  readonly picker?: StandInPicker | null;
  readonly switchSession?: (sessionId: string) => Promise<void>;
  /** Between the TUI and the stand-in session (default loopback). */
  readonly transport?: TransportKind;
}

const closing: Array<() => Promise<void>> = [];

/** Runs `close` at the next `closePickerTuis`, after what was registered later. */
export function onClose(close: () => Promise<void>): void {
  closing.push(close);
}

/** For afterEach: stops every TUI and stand-in session started since, newest first. */
export async function closePickerTuis(): Promise<void> {
  for (const close of closing.splice(0).reverse()) await close();
}

/** A stand-in session serving SessionPicker, and a test TUI (120 columns) running the facet. */
export async function startPickerTui(options: PickerTuiOptions = {}): Promise<PickerTui> {
  const picker = options.picker === undefined ? standInPicker() : options.picker;
  const rpc = await startRpcFixture(options.transport ?? 'loopback', {
    provide: (registry) => void (picker === null ? undefined : registry.provide(SessionPicker, picker)),
  });
  onClose(() => rpc.close());
  const switched: string[] = [];
  const tui = await startTestTuiHost({
    facets: { '@pi/session-directory': sessionDirectoryTuiFacet },
    client: await rpc.connect(),
    columns: 120,
    switchSession:
      options.switchSession ??
      (async (sessionId) => {
        switched.push(sessionId);
      }),
  });
  onClose(() => tui.stop());
  const painted = (test: (screen: string) => boolean) =>
    eventually(() => {
      tui.host.flush();
      return test(tui.screen());
    });
  return {
    tui,
    picker: picker ?? standInPicker(),
    switched,
    shows: (text) => painted((screen) => screen.includes(text)),
    hides: (text) => painted((screen) => !screen.includes(text)),
  };
}
