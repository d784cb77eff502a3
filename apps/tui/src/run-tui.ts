import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { err, ok, type Result } from 'neverthrow';
import { findRunningSession, type PiDirectories } from '@pi/connection-files';
import { loadFacets, readBundledFacets, readManifestSource } from '@pi/host-kit';
import { startTuiHost } from '@pi/host-tui';
import { defaultKeymap, enterTerminal, keymapFromJson, restoreTerminal, type Keymap } from '@pi/terminal';
import { attach, sessionSwitcher, type Attachment } from './attach';
import { runAttachLoop } from './attach-loop';
import type { CliOptions } from './cli-options';
import { startSessionProcess, type StartedSession } from './session-process';
import { findSessionTarget } from './session-target';

/**
 * Attaches the TUI to a session and runs until the user quits (or SIGTERM/SIGHUP). With `--start` and no session
 * in the directory, it starts one and stops it again on the way out: no orphan process. Unless it was attached by
 * socket or URL, the session picker can move it to another session of the data directory (`attach-loop.ts`).
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

  let started: StartedSession | undefined;
  if (options.start && (await findRunningSession(directories.dataDir, { cwd: options.cwd })).isErr()) {
    const flags = ['--data-dir', directories.dataDir, '--config-dir', directories.configDir];
    const session = await startSessionProcess(
      options.cwd,
      options.manifest === undefined ? flags : [...flags, '--manifest', options.manifest],
      env,
    );
    if (session.isErr()) return err(session.error);
    started = session.value;
  }
  const target = await findSessionTarget(
    started === undefined ? options : { ...options, sessionId: started.sessionId },
    directories.dataDir,
    env,
  );
  if (target.isErr()) {
    await started?.stop();
    return err(`${target.error}${options.start ? '' : ' (start one with `npm start`, or pi-tui --start)'}`);
  }

  const first = await attach(target.value);
  if (first.isErr()) {
    await started?.stop();
    return err(first.error);
  }

  const input = process.stdin;
  const output = process.stdout;
  const restore = () => {
    output.write(restoreTerminal());
    if (input.isTTY) input.setRawMode(false);
  };
  process.once('exit', restore);
  if (input.isTTY) input.setRawMode(true);
  input.resume();
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
      });
      if (host.isErr()) return err(host.error.message);
      output.write(enterTerminal({ altScreen: false }));
      return ok(host.value);
    },
  });
  restore();
  await started?.stop();
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
