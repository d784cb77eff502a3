import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { connect, type PiClient } from '@pi/client';
import { createSandbox } from '../tui/sandbox';
import { startBystander, type BystanderFigures } from './bystander';
import { EDITED, catalogFileText, replaceFile } from './catalog-file';
import { startSessionUnderTest, type LoopDelay, type SessionUnderTest } from './session-under-test';
import { startWatchers } from './watchers';

/** One phase on the host: how long it took, the host's longest event-loop stall, and a bystander's calls. */
export interface PhaseFigures {
  readonly durationMs: number;
  readonly loop: LoopDelay;
  readonly bystander: BystanderFigures;
}

export interface CatalogRound {
  /** The workspace whose pi-session ran. */
  readonly root: string;
  readonly models: number;
  readonly fileBytes: number;
  /** models.json replaced → every watcher shows the new catalogue (or the file's warning). */
  readonly reload: PhaseFigures;
  /** When the catalogue was loaded: the file replaced again with every name edited → every watcher shows the edit
   *  (the session's code is warm by now, as for a user editing the file). */
  readonly edit?: PhaseFigures;
  /** `models.refresh` of the same file, called by another client, until it returns. */
  readonly refresh: PhaseFigures;
  /** What the watchers show after the reload: the catalogue's size, or the warning. */
  readonly outcome: string;
}

export interface CatalogRoundOptions {
  readonly root: string;
  readonly models: number;
  readonly watchers: number;
  /** The catalogue's servers, which the refresh probes. */
  readonly baseUrl: string;
  readonly profileDir?: string;
}

/** A fresh session with the built-in plugins, `watchers` presentations and a bystander; then a catalogue of `models`. */
export async function measureCatalog(options: CatalogRoundOptions): Promise<CatalogRound> {
  const box = await createSandbox();
  const configDir = join(box.env['XDG_CONFIG_HOME'] ?? '', 'pi');
  await mkdir(configDir, { recursive: true });
  const session = await startSessionUnderTest({ ...options, project: box.project, env: box.env });
  const clients: PiClient[] = [];
  try {
    const watchers = await startWatchers(box.project, box.dataDir, options.watchers);
    try {
      const offlineModels = watchers.latest()[0]?.models ?? 0;
      for (let index = 0; index < 2; index += 1) clients.push(await connected(box.project, box.dataDir));
      const [bystander, caller] = clients as [PiClient, PiClient];
      const text = catalogFileText(options.models, options.baseUrl);
      const file = join(configDir, 'models.json');
      const reload = await phase(session, bystander, async () => {
        await replaceFile(file, text);
        await watchers.until((state) => state.models !== offlineModels || state.fileWarning !== null);
      });
      const [seen] = watchers.latest();
      const outcome = seen?.fileWarning ?? `${(seen?.models ?? 0) - offlineModels} models shown`;
      const edit =
        seen?.fileWarning === null
          ? await phase(session, bystander, async () => {
              await replaceFile(file, catalogFileText(options.models, options.baseUrl, true));
              await watchers.until((state) => state.lastName?.endsWith(EDITED) === true);
            })
          : undefined;
      const refresh = await phase(session, bystander, async () => {
        await caller.call('models', 'refresh', []);
        await watchers.until((state) => state.refresh !== 'refreshing');
      });
      return {
        root: options.root,
        models: options.models,
        fileBytes: Buffer.byteLength(text),
        reload,
        ...(edit === undefined ? {} : { edit }),
        refresh,
        outcome,
      };
    } finally {
      await watchers.stop();
    }
  } finally {
    for (const client of clients) client.close();
    await session.stop();
    await box.remove();
  }
}

async function phase(session: SessionUnderTest, client: PiClient, body: () => Promise<void>): Promise<PhaseFigures> {
  await session.resetLoopDelay();
  const bystander = startBystander(client);
  const start = performance.now();
  await body();
  const durationMs = performance.now() - start;
  // Work the host does after the last frame (a trailing publish, collection) still counts against its loop.
  await new Promise((resolve) => setTimeout(resolve, 100));
  const loop = await session.loopDelay();
  return { durationMs, loop, bystander: await bystander.stop() };
}

async function connected(cwd: string, dataDir: string): Promise<PiClient> {
  const result = await connect({ cwd, dataDir, heartbeat: false });
  if (result.isErr()) throw result.error;
  return result.value;
}
