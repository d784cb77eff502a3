import { err, ok, type Result } from 'neverthrow';
import type { PiDirectories } from '@pi/connection-files';
import {
  failureText,
  pluginRootsOf,
  readBundledFacets,
  reloadPluginSet,
  resolvePluginSet,
  startDevReload,
  type LoadedFacet,
} from '@pi/host-kit';
import { startTuiHost, type TuiHost } from '@pi/host-tui';
import { enterTerminal } from '@pi/terminal';
import { attach, sessionSwitcher, type Attachment } from './attach';
import { runAttachLoop } from './attach-loop';
import type { CliOptions } from './cli-options';
import { openSessionThroughCoordinator, resumeEndedSession } from './coordinator-launch';
import type { EarlyCoordinatorStart } from './coordinator-start';
import { reviveWhenEnded } from './session-revival';
import type { StartupScreen, TypedWhileStarting } from './startup-screen';
import type { StartupTerminal } from './startup-terminal';
import { terminalEditor } from './terminal-editor';
import { findSessionTarget } from './session-target';
import { PLUGIN_SCOPE_HEADER_ID, pluginScopeHeader } from './plugin-scope-header';

/**
 * Attaches the TUI to a session and runs until the user quits (or SIGTERM/SIGHUP). With `--start` it goes through
 * the user's coordinator (started when none runs), which opens the directory's session and keeps it after the TUI
 * quits: `pi-coordinator stop` stops it all. Unless it was attached by socket or URL, the session picker can move
 * it to another session of the data directory (`attach-loop.ts`).
 */
export async function runTui(
  options: CliOptions,
  directories: PiDirectories,
  env: NodeJS.ProcessEnv,
  terminal: StartupTerminal,
  /** The `import.meta.url` of the program's entry: its bundle's facets and sibling programs are found from it. */
  entryUrl: string,
  /** With --start: the `pi-coordinator start` the entry began while this module loaded, if it began one. */
  earlyCoordinator?: Promise<EarlyCoordinatorStart | undefined>,
): Promise<Result<void, string>> {
  const { input, output } = terminal.io;
  const { keymap, quitting, screen: startup } = terminal;
  // What is being started goes on without this TUI when the user quits meanwhile (as an interrupted start did).
  const started = await Promise.race([
    quitting.then(() => undefined),
    attachFirst(options, directories, env, startup, entryUrl, earlyCoordinator),
  ]);
  if (started === undefined || started.isErr()) {
    terminal.restoreFromStartup();
    return started === undefined ? ok(undefined) : err(started.error);
  }
  const { facets, startProblems, first } = started.value;
  /** The TUI facets the next host starts with: the running host's when it stops (a `/reload` may replace them). */
  let current: readonly LoadedFacet<'tui'>[] = facets;
  let running: TuiHost<LoadedFacet<'tui'>> | undefined;
  const runningFacets = () => running?.facets() ?? current;
  const reloadFacets = async (generation: number) =>
    (await loadTuiFacets(options, directories.configDir, entryUrl, { generation, startProblems })).map(
      (set) => set.facets,
    );
  /** What was typed while pi started, for the first host only. */
  let typed: TypedWhileStarting | undefined = startup.handOver();

  /** What the editor held when the TUI last switched sessions: the next host starts with it. */
  let draft = '';
  // Attach, run until quit or a switch to another session, re-attach; a session started here stops only at quit.
  const outcome = await runAttachLoop<Attachment>({
    first,
    // The next host starts with the facets running now (a /reload may have replaced the start-up set), so those are
    // what the other session's plugins are checked against.
    attachTo: sessionSwitcher(options, directories.dataDir, env, runningFacets),
    detach: (attachment) => attachment.client.close(),
    quitting,
    async start(attachment, switchSession) {
      const carried = typed;
      typed = undefined;
      // The startup screen stays until the TUI's first frame replaces it: the TUI's setup and that frame reach the
      // terminal in one write.
      if (carried !== undefined) output.cork();
      const host = await startTuiHost({
        facets: current,
        client: attachment.client,
        terminal: { input, output },
        keymap,
        label: attachment.label,
        onQuit: () => terminal.quit(),
        switchSession,
        externalEditor: terminalEditor({ input, output, env }),
        draft: carried?.draft ?? draft,
        submitWhenConnected: carried?.queued,
        reloadFacets,
      }).finally(() => {
        if (carried !== undefined) output.uncork();
      });
      // Keys typed while the hosts changed over waited in the paused stream; the new host reads them now.
      input.resume();
      if (host.isErr()) return err(failureText(host.error.message, host.error.cause, env));
      const built = await readBundledFacets(entryUrl);
      // The scope header is this program's own module, not a plugin's: its folder is the program's, never watched.
      running = host.value;
      const plugins = () => host.value.facets().filter((facet) => facet.id !== PLUGIN_SCOPE_HEADER_ID);
      const dev = options.dev
        ? startDevReload({ roots: () => pluginRootsOf(plugins(), built), reload: () => host.value.reload() })
        : undefined;
      const stopHost = async () => {
        dev?.close();
        input.pause();
        draft = host.value.draft();
        current = host.value.facets();
        running = undefined;
        await host.value.stop();
      };
      output.write(enterTerminal({ altScreen: false }));
      const { sessionId } = attachment;
      if (!options.start || sessionId === undefined) return ok({ stop: stopHost });
      // Opened through the coordinator: a session whose process ends under the TUI is started again.
      const stopReviving = reviveWhenEnded(attachment.client, () => resumeEndedSession(sessionId, directories));
      return ok({
        stop: async () => {
          stopReviving();
          await stopHost();
        },
      });
    },
  });
  terminal.restore();
  return outcome;
}

/**
 * Everything before the TUI can start, each step shown on the startup screen: the TUI facets (loaded meanwhile),
 * the session (opened through the coordinator with --start) and a connection to it.
 */
async function attachFirst(
  options: CliOptions,
  directories: PiDirectories,
  env: NodeJS.ProcessEnv,
  startup: StartupScreen,
  entryUrl: string,
  earlyCoordinator: Promise<EarlyCoordinatorStart | undefined> | undefined,
): Promise<Result<TuiPluginSet & { first: Attachment }, string>> {
  const facets = loadTuiFacets(options, directories.configDir, entryUrl);
  let opened: string | undefined;
  if (options.start) {
    const session = await openSessionThroughCoordinator(options.cwd, directories, options.manifest, env, {
      from: entryUrl,
      progress: (step) => startup.phase(step),
      early: earlyCoordinator,
    });
    if (session.isErr()) return err(session.error);
    opened = session.value;
  }
  startup.phase('Connecting to the session');
  const target = await findSessionTarget(
    opened === undefined ? options : { ...options, sessionId: opened },
    directories.dataDir,
    env,
  );
  if (target.isErr()) {
    const named = options.start || options.url !== undefined || options.socket !== undefined;
    return err(`${target.error}${named ? '' : ' (start one with `pi-tui --start`; in a pi checkout, `npm start`)'}`);
  }
  const loaded = await facets;
  if (loaded.isErr()) return err(loaded.error);
  const first = await attach(target.value, undefined, loaded.value.facets);
  return first.map((attachment) => ({ ...loaded.value, first: attachment }));
}

interface TuiPluginSet {
  readonly facets: LoadedFacet<'tui'>[];
  /** The scopes left out when the set was read at start: a reload may leave them out again, nothing more. */
  readonly startProblems: readonly string[];
}

/**
 * The tui facets of the built-in (or --manifest), global and project plugins: only their modules are imported, a
 * presentation never loads session code. Last comes the header naming the project's plugins and what was left out.
 * Read again for a reload, a plugin that loaded at start and no longer does fails it, so the running facets stay.
 */
async function loadTuiFacets(
  options: CliOptions,
  configDir: string,
  entryUrl: string,
  reload?: { readonly generation: number; readonly startProblems: readonly string[] },
): Promise<Result<TuiPluginSet, string>> {
  const request = {
    host: 'tui' as const,
    configDir,
    project: options.cwd,
    manifestFile: options.manifest,
    built: await readBundledFacets(entryUrl),
  };
  const set = await (reload === undefined
    ? resolvePluginSet(request)
    : reloadPluginSet({ ...request, generation: reload.generation }, reload.startProblems));
  return set.map((loaded) => ({
    facets: [...loaded.facets, pluginScopeHeader(loaded)],
    startProblems: loaded.problems,
  }));
}
