import { join } from 'node:path';
import { isRunning } from '@pi/connection-files';
import { RemoteError } from '@pi/remote';
import { startBystander } from '../bystander/bystander';
import { bytesText, count, latencyText } from '../figures';
import { PromptRefused, startPrompter, promptText, type Prompter } from '../prompter';
import { judge, skipped } from '../row-report';
import { connectClient } from '../session-client';
import { entryIdsOnDisk } from '../session-file';
import { startSessionProgram } from '../session-program';
import { fillDisk, freeDisk, mountSmallDisk, unmount } from '../small-disk';
import type { SoakRow } from '../soak-row';

const DISK_BYTES = 8 * 1024 * 1024;
const ATTEMPTS_WHILE_FULL = 3;
const SETTLE_TIMEOUT_MS = 60_000;

const WHAT =
  'a pi-session whose data directory is a small tmpfs, prompted; the disk filled; prompts tried while it was full; ' +
  'the disk freed; a prompt and a restart of the session must then work, with every announced entry on disk';

export const fullDiskRow: SoakRow = {
  name: 'full-disk',
  what: WHAT,
  timeLimitMs: () => 300_000,
  async run(context) {
    const home = await context.home();
    const dataRoot = home.env['XDG_DATA_HOME'] ?? join(home.root, 'data');
    const disk = await mountSmallDisk(dataRoot, DISK_BYTES);
    if (!disk.mounted) return skipped('full-disk', WHAT, disk.reason);
    context.defer(() => unmount(dataRoot));
    const session = await startSessionProgram(home, home.folders.project);
    let crashed = false;
    void session.program.exited.then(() => (crashed = true));
    context.defer(() => session.stop());
    const bystander = await startBystander(session);
    const client = await connectClient(session);
    context.defer(() => client.close());
    const prompter = await startPrompter(client);
    for (let index = 0; index < 2; index++) await prompter.run(promptText(`before the disk fills ${index}`, 200));

    const filler = await fillDisk(dataRoot);
    context.log(`disk full (${bytesText(filler.bytes)} of filler)`);
    const whileFull: string[] = [];
    for (let attempt = 0; attempt < ATTEMPTS_WHILE_FULL && !crashed; attempt++) {
      whileFull.push(await attemptPrompt(prompter, `while the disk is full ${attempt}`));
    }
    const aliveWhileFull = !crashed && isRunning(session.pid);
    await freeDisk(filler.file);
    const afterFree = crashed ? 'the session is gone' : await attemptPrompt(prompter, 'after the disk was freed');
    const seen = await bystander.stop();
    client.close();
    const stopped = await session.stop();
    const restarted = await startSessionProgram(home, home.folders.project, ['--session', session.sessionId]).then(
      async (again) => {
        await again.stop();
        return true;
      },
      () => false,
    );
    const onDisk = entryIdsOnDisk(home, session.sessionId);
    const lost = prompter.acknowledged.filter((id) => !onDisk.has(id)).length;
    const kinds = new Set(whileFull);
    const [only] = kinds;
    const stableError =
      whileFull.length === ATTEMPTS_WHILE_FULL && kinds.size === 1 && only !== undefined && isStableFailure(only);
    return judge('full-disk', {
      what: WHAT,
      counts: [
        `${ATTEMPTS_WHILE_FULL} prompts while full: ${[...kinds].join(' | ')}`,
        `after freeing: ${afterFree}`,
        `${count(prompter.acknowledged.length)} entries announced, ${lost} not on disk`,
        `session: ${aliveWhileFull ? 'alive' : 'crashed'} while full, exit ${stopped.code ?? stopped.signal} on SIGTERM, restart ${restarted ? 'opened the session' : 'failed'}`,
        `bystander: ${count(seen.calls)} calls, ${seen.failures} failed, ${seen.drops} drops`,
      ],
      figures: [
        `tmpfs of ${bytesText(DISK_BYTES)}, ${bytesText(filler.bytes)} of filler`,
        `bystander ${latencyText(seen.latency)}`,
      ],
      checks: [
        { label: 'the session stayed up while the disk was full', ok: aliveWhileFull },
        {
          label: `every prompt while full failed the same way with a stable code (${[...kinds].join(' | ')})`,
          ok: stableError,
        },
        { label: `a prompt completed once the disk was freed (${afterFree})`, ok: afterFree === 'completed' },
        { label: 'the session file opens again after a restart', ok: restarted },
        { label: `every announced entry is on disk (${lost} missing)`, ok: lost === 0 },
        {
          label: `the bystander's calls all succeeded (${seen.failures} failed, ${seen.drops} drops: ${seen.failureSamples.join('; ')})`,
          ok: seen.calls > 0 && seen.failures === 0 && seen.drops === 0,
        },
      ],
    });
  },
};

/**
 * What one prompt came to, as a short signature: `completed`, `refused <code>` (not accepted), `call failed
 * <code>`, `<outcome>: <error>` (settled otherwise), or `no answer` (it hung).
 */
async function attemptPrompt(prompter: Prompter, label: string): Promise<string> {
  let operationId: string;
  try {
    operationId = await prompter.prompt(promptText(label, 300));
  } catch (error) {
    if (error instanceof PromptRefused) return `refused ${error.code}`;
    return `call failed ${error instanceof RemoteError ? error.code : String(error)}`;
  }
  try {
    const settled = await prompter.settled(operationId, SETTLE_TIMEOUT_MS);
    if (settled.outcome === 'completed') return 'completed';
    return `${settled.outcome}: ${(settled.error ?? '').replace(/\/\S+/g, '<path>').slice(0, 80)}`;
  } catch {
    return 'no answer';
  }
}

/** A failure a client can act on: not a hang, not a success, not an internal error. */
function isStableFailure(signature: string): boolean {
  return signature !== 'completed' && signature !== 'no answer' && !signature.includes('internal');
}
