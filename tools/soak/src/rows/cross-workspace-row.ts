import { statSync } from 'node:fs';
import { join } from 'node:path';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { RemoteError } from '@pi/remote';
import { startCoordinator, userDirectory } from '../coordinator-program';
import { judge } from '../row-report';
import { connectClient } from '../session-client';
import { readSessionAddress } from '../session-program';
import type { SoakRow } from '../soak-row';
import { waitFor } from '../waiting';

/** Refusals that say nothing about authorization: the picker could not even ask. */
const NOT_AN_ANSWER = new Set(['unavailable', 'disconnected', 'internal', 'cancelled', 'timeout']);

const WHAT =
  "two projects' sessions under one coordinator; the second removed (its file stays on disk); then the first " +
  "session's session-picker.create({ sessionId }) named the removed one, as a compromised presentation could";

export const crossWorkspaceRow: SoakRow = {
  name: 'cross-workspace',
  what: WHAT,
  timeLimitMs: () => 240_000,
  async run(context) {
    const home = await context.home();
    await startCoordinator(home);
    const user = await userDirectory(home);
    context.defer(() => user.close());
    const mine = await user.create(home.folders.project, 'the caller');
    const theirs = await user.create(home.folders['other-project'], 'another project');
    await user.directory.remove(theirs.sessionId, BACKGROUND_CONTEXT);
    const theirFile = join(home.directories.dataDir, 'sessions', `${theirs.sessionId}.jsonl`);
    const fileBefore = statSync(theirFile, { throwIfNoEntry: false });

    const client = await connectClient(await readSessionAddress(home, mine.sessionId));
    context.defer(() => client.close());
    let upstream = 'unknown';
    const stopWatch = await client.watch('session-picker', {
      next(frame) {
        const snapshot = frame as {
          kind?: string;
          state?: { state?: { value?: { upstream?: string } } };
          value?: { upstream?: string };
        };
        upstream =
          (snapshot.kind === 'snapshot' ? snapshot.state?.state?.value?.upstream : snapshot.value?.upstream) ??
          upstream;
      },
      error: () => undefined,
    });
    context.defer(stopWatch);
    await waitFor('the session never reached its coordinator', () => upstream === 'connected', 60_000);

    const outcome = await client
      .call('session-picker', 'create', [{ title: 'taken over', sessionId: theirs.sessionId }])
      .then(
        (answer) => ({ refused: false as const, detail: `created ${JSON.stringify(answer.value)}` }),
        (error: unknown) => ({
          refused: true as const,
          code: error instanceof RemoteError ? error.code : 'not a RemoteError',
          detail: error instanceof Error ? error.message : String(error),
        }),
      );
    const listed = user.directory.state.value.sessions.find((session) => session.sessionId === theirs.sessionId);
    const running = home.processes().filter((process) => process.sessionId === theirs.sessionId).length;
    const fileAfter = statSync(theirFile, { throwIfNoEntry: false });
    const fileUntouched =
      fileBefore !== undefined && fileAfter?.size === fileBefore.size && fileAfter.mtimeMs === fileBefore.mtimeMs;
    const answered = outcome.refused && !NOT_AN_ANSWER.has(outcome.code);
    return judge('cross-workspace', {
      what: WHAT,
      counts: [
        outcome.refused ? `refused: ${outcome.code}: ${outcome.detail}` : `not refused: ${outcome.detail}`,
        `the removed session afterwards: ${listed === undefined ? 'no record' : `a record in ${listed.cwd} (${listed.status})`}, ${running} processes, its file ${fileUntouched ? 'untouched' : 'changed'}`,
      ],
      figures: [],
      checks: [
        {
          label: `the create was refused for authorization (${outcome.refused ? outcome.code : 'not refused'})`,
          ok: answered,
        },
        { label: 'the removed session has no record afterwards', ok: listed === undefined },
        { label: `no process runs the removed session (${running})`, ok: running === 0 },
        { label: "the removed session's file is untouched", ok: fileUntouched },
      ],
    });
  },
};
