import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { err, ok, type Result } from 'neverthrow';
import type { PiDirectories } from '@pi/connection-files';
import { loadFacets, readBundledFacets, readManifestSource, type LoadedFacet } from '@pi/host-kit';
import { startTuiHost } from '@pi/host-tui';
import { defaultKeymap, enterTerminal, keymapFromJson, restoreTerminal, type Keymap } from '@pi/terminal';
import { attach, sessionSwitcher, type Attachment } from './attach';
import { runAttachLoop } from './attach-loop';
import type { CliOptions } from './cli-options';
import { openSessionThroughCoordinator, resumeEndedSession } from './coordinator-launch';
import { reviveWhenEnded } from './session-revival';
import { openStartupScreen, type StartupScreen, type TypedWhileStarting } from './startup-screen';
import { terminalEditor } from './terminal-editor';
import { findSessionTarget } from './session-target';

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
): Promise<Result<void, string>> {
  const keymap = await readKeymap(join(directories.configDir, 'keybindings.json'));
  if (keymap.isErr()) return err(keymap.error);

  const input = process.stdin;
  const output = process.stdout;
  // The screen is pi's from the first moment: it says what pi waits for, and takes the first prompts meanwhile.
  const startup = openStartupScreen({ terminal: { input, output }, keymap: keymap.value, label: options.cwd });
  const restore = () => {
    output.write(restoreTerminal());
    if (input.isTTY) input.setRawMode(false);
  };
  process.once('exit', restore);
  let quit: () => void = () => undefined;
  const quitting = new Promise<void>((resolve) => (quit = resolve));
  for (const signal of ['SIGTERM', 'SIGHUP'] as const) process.once(signal, () => quit());
  void startup.quitting.then(() => quit());

  // What is being started goes on without this TUI when the user quits meanwhile (as an interrupted start did).
  const started = await Promise.race([quitting.then(() => undefined), attachFirst(options, directories, env, startup)]);
  if (started === undefined || started.isErr()) {
    // Restored once: leaving the alternate screen again would move the cursor back over what is printed after it.
    process.off('exit', restore);
    startup.restore();
    return started === undefined ? ok(undefined) : err(started.error);
  }
  const { facets, first } = started.value;
  /** What was typed while pi started, for the first host only. */
  let typed: TypedWhileStarting | undefined = startup.handOver();

  /** What the editor held when the TUI last switched sessions: the next host starts with it. */
  let draft = '';
  // Attach, run until quit or a switch to another session, re-attach; a session started here stops only at quit.
  const outcome = await runAttachLoop<Attachment>({
    first,
    attachTo: sessionSwitcher(options, directories.dataDir, env),
    detach: (attachment) => attachment.client.close(),
    quitting,
    async start(attachment, switchSession) {
      const carried = typed;
      typed = undefined;
      // The startup screen stays until the TUI's first frame replaces it: the TUI's setup and that frame reach the
      // terminal in one write.
      if (carried !== undefined) output.cork();
      const host = await startTuiHost({
        facets,
        client: attachment.client,
        terminal: { input, output },
        keymap: keymap.value,
        label: attachment.label,
        onQuit: () => quit(),
        switchSession,
        externalEditor: terminalEditor({ input, output, env }),
        draft: carried?.draft ?? draft,
        submitWhenConnected: carried?.queued,
      }).finally(() => {
        if (carried !== undefined) output.uncork();
      });
      // Keys typed while the hosts changed over waited in the paused stream; the new host reads them now.
      input.resume();
      if (host.isErr()) return err(host.error.message);
      const stopHost = async () => {
        input.pause();
        draft = host.value.draft();
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
  restore();
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
): Promise<Result<{ facets: LoadedFacet<'tui'>[]; first: Attachment }, string>> {
  const facets = loadTuiFacets(options.manifest);
  let opened: string | undefined;
  if (options.start) {
    const session = await openSessionThroughCoordinator(options.cwd, directories, options.manifest, env, (step) =>
      startup.phase(step),
    );
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
    return err(`${target.error}${options.start ? '' : ' (start one with `npm start`, or pi-tui --start)'}`);
  }
  const loaded = await facets;
  if (loaded.isErr()) return err(loaded.error);
  const first = await attach(target.value);
  return first.map((attachment) => ({ facets: loaded.value, first: attachment }));
}

/** The manifest's tui facets: only their modules are imported, a presentation never loads session code. */
async function loadTuiFacets(manifest: string | undefined): Promise<Result<LoadedFacet<'tui'>[], string>> {
  const source = await readManifestSource(manifest, await readBundledFacets(import.meta.url));
  if (source.isErr()) return err(source.error);
  const facets = await loadFacets(source.value.manifest, 'tui', source.value.lookup);
  return facets.mapErr((error) => error.message);
}

/** The user's keybindings file, if any: action → key or keys. A broken file is an error, not a silent default. */
async function readKeymap(path: string): Promise<Result<Keymap, string>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    return ok(defaultKeymap);
  }
  return keymapFromJson(text).mapErr((error) => `${path}: ${error.message}`);
}
