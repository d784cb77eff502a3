import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { err, ok, type Result } from 'neverthrow';
import type { PiDirectories } from '@pi/connection-files';
import { loadFacets, readBundledFacets, readManifestSource } from '@pi/host-kit';
import { startTuiHost } from '@pi/host-tui';
import { defaultKeymap, enterTerminal, keymapFromJson, restoreTerminal, type Keymap } from '@pi/terminal';
import { attach, sessionSwitcher, type Attachment } from './attach';
import { runAttachLoop } from './attach-loop';
import type { CliOptions } from './cli-options';
import { openSessionThroughCoordinator, resumeEndedSession } from './coordinator-launch';
import { reviveWhenEnded } from './session-revival';
import { startupProgress } from './startup-progress';
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
  const source = await readManifestSource(options.manifest, await readBundledFacets(import.meta.url));
  if (source.isErr()) return err(source.error);
  // Only tui facet modules are imported: a presentation never loads session code.
  const facets = await loadFacets(source.value.manifest, 'tui', source.value.lookup);
  if (facets.isErr()) return err(facets.error.message);
  const keymap = await readKeymap(join(directories.configDir, 'keybindings.json'));
  if (keymap.isErr()) return err(keymap.error);

  const input = process.stdin;
  const output = process.stdout;
  // The terminal stays as it is (Ctrl+C still stops a start that hangs); a line says what pi waits for.
  const progress = startupProgress(output);
  let opened: string | undefined;
  if (options.start) {
    const session = await openSessionThroughCoordinator(options.cwd, directories, options.manifest, env, progress);
    if (session.isErr()) return progress.failed(session.error);
    opened = session.value;
  }
  progress('connecting');
  const target = await findSessionTarget(
    opened === undefined ? options : { ...options, sessionId: opened },
    directories.dataDir,
    env,
  );
  if (target.isErr()) {
    return progress.failed(`${target.error}${options.start ? '' : ' (start one with `npm start`, or pi-tui --start)'}`);
  }

  const first = await attach(target.value);
  if (first.isErr()) return progress.failed(first.error);
  progress.done();
  const restore = () => {
    output.write(restoreTerminal());
    if (input.isTTY) input.setRawMode(false);
  };
  process.once('exit', restore);
  if (input.isTTY) input.setRawMode(true);
  input.resume();

  /** What the editor held when the TUI last switched sessions: the next host starts with it. */
  let draft = '';
  let quit: () => void = () => undefined;
  const quitting = new Promise<void>((resolve) => (quit = resolve));
  for (const signal of ['SIGTERM', 'SIGHUP'] as const) process.once(signal, () => quit());
  // Attach, run until quit or a switch to another session, re-attach; a session started here stops only at quit.
  const outcome = await runAttachLoop<Attachment>({
    first: first.value,
    attachTo: sessionSwitcher(options, directories.dataDir, env),
    detach: (attachment) => attachment.client.close(),
    quitting,
    async start(attachment, switchSession) {
      const host = await startTuiHost({
        facets: facets.value,
        client: attachment.client,
        terminal: { input, output },
        keymap: keymap.value,
        label: attachment.label,
        onQuit: () => quit(),
        switchSession,
        externalEditor: terminalEditor({ input, output, env }),
        draft,
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
