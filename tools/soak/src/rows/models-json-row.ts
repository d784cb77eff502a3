import { setTimeout as sleep } from 'node:timers/promises';
import { startBystander } from '../bystander/bystander';
import type { PiClient } from '@pi/client';
import type { BystanderStats } from '../bystander/bystander-protocol';
import { bytesText, count, latencyText, medianOf, mib, ms } from '../figures';
import { largeModelsJson, startProbeServer, writeModelsJson } from '../models-json-file';
import { openRawPeer } from '../raw-peer';
import { judge } from '../row-report';
import { connectClient } from '../session-client';
import { startSessionProgram } from '../session-program';
import type { SoakRow } from '../soak-row';

/** The longest a bystander's call may take while the session reloads and refreshes a large models.json. */
export const MODELS_DELAY_BOUND_MS = 1_000;
const BASELINE_MS = 3_000;
/** The watcher's debounce and reload, before the explicit refresh. */
const RELOAD_WAIT_MS = 3_000;
const REFRESH_TIMEOUT_MS = 180_000;

const WHAT =
  "a large models.json (every provider at a loopback probe server) saved over the session's, then models.refresh, " +
  'while a presentation watched models and a bystander client in its own process kept calling; repeated with ' +
  "another file each round, and the median of the rounds' slowest bystander calls judged";

export const modelsJsonRow: SoakRow = {
  name: 'models-json',
  what: WHAT,
  timeLimitMs: (quick) => (quick ? 300_000 : 600_000),
  async run(context) {
    const models = context.quick ? 20_000 : 60_000;
    const rounds = context.quick ? 1 : 3;
    const probes = await startProbeServer();
    context.defer(() => probes.close());
    const home = await context.home();
    const session = await startSessionProgram(home, home.folders.project);
    context.defer(() => session.stop());
    // A presentation replicating Models, as the TUI does: every catalogue change is encoded for it.
    let watchedBytes = 0;
    let refreshStatus = 'none seen';
    const watcher = await openRawPeer(session.socketPath, {
      token: session.token,
      onFrame: (text) => {
        watchedBytes += text.length;
        refreshStatus = refreshStatusIn(text) ?? refreshStatus;
      },
    });
    context.defer(() => watcher.terminate());
    watcher.send(JSON.stringify({ id: 1, method: 'subscription', params: { path: 'models.$watch' } }));
    const bystander = await startBystander(session);
    await sleep(BASELINE_MS);
    const before = await bystander.window();

    const client = await connectClient(session);
    context.defer(() => client.close());
    const refreshes: string[] = [];
    const refreshTimes: number[] = [];
    const windows: BystanderStats[] = [];
    let size = 0;
    for (let round = 1; round <= rounds && !context.signal.aborted; round++) {
      // Another file each round (the model names carry the round), so the watcher reloads every time.
      const text = largeModelsJson(models, probes.baseUrl, `r${round}`);
      size = text.length;
      context.log(`round ${round}: models.json of ${count(models)} models (${mib(size)})`);
      await bystander.window();
      const started = performance.now();
      await writeModelsJson(home.directories.configDir, text);
      await sleep(RELOAD_WAIT_MS);
      refreshes.push(await refresh(client));
      refreshTimes.push(performance.now() - started);
      await sleep(1_000);
      windows.push(await bystander.window());
    }
    const total = await bystander.stop();
    const slowest = medianOf(windows.map((window) => window.latency.max));
    return judge('models-json', {
      what: WHAT,
      counts: [
        `${rounds} × ${count(models)} models in ${count(Math.ceil(models / 100))} providers, ${mib(size)}`,
        `refresh: ${[...new Set(refreshes)].join(' | ')}; last status: ${refreshStatus}`,
        `bystander during: ${count(windows.reduce((all, w) => all + w.calls, 0))} calls, ${total.failures} failed, ${total.drops} drops`,
      ],
      figures: [
        `save → refresh answered in ${refreshTimes.map((time) => ms(time)).join(', ')}`,
        `bystander before: ${latencyText(before.latency)}`,
        ...windows.map((window, index) => `bystander, round ${index + 1}: ${latencyText(window.latency)}`),
        `${bytesText(watchedBytes)} sent to the Models watcher`,
      ],
      checks: [
        {
          label: `models.refresh answered every time (${[...new Set(refreshes)].join(' | ')})`,
          ok:
            refreshes.length === rounds &&
            refreshes.every((answer) => answer === 'done' || answer.startsWith('failed')),
        },
        {
          label: `the slowest bystander call of a round, median over ${rounds} rounds, took at most ${ms(MODELS_DELAY_BOUND_MS)} (${ms(slowest)})`,
          ok: windows.every((window) => window.calls > 0) && slowest <= MODELS_DELAY_BOUND_MS,
        },
        {
          label: `the bystander's calls all succeeded (${total.failures} failed, ${total.drops} drops: ${total.failureSamples.join('; ')})`,
          ok: total.calls > 0 && total.failures === 0 && total.drops === 0,
        },
      ],
    });
  },
};

/** `models.refresh`, answered or not within its bound. */
function refresh(client: PiClient): Promise<string> {
  return Promise.race([
    client.call('models', 'refresh', []).then(
      () => 'done',
      (error: unknown) => `failed: ${error instanceof Error ? error.message : String(error)}`,
    ),
    sleep(REFRESH_TIMEOUT_MS).then(() => `not answered in ${REFRESH_TIMEOUT_MS / 1000} s`),
  ]);
}

/** The refresh status a Models watch frame carries (`{ status, errors? }` of the `state` cell), as a short text. */
function refreshStatusIn(text: string): string | undefined {
  const frame = JSON.parse(text) as { result?: { data?: { json?: WatchData } } };
  const data = frame.result?.data?.json;
  const value =
    data?.kind === 'snapshot' ? data.state?.['state']?.value : data?.kind === 'state' ? data.value : undefined;
  const refresh = value?.refresh;
  if (refresh === undefined) return undefined;
  const errors = Object.entries(refresh.errors ?? {}).map(([key, error]) => `${key}: ${error}`);
  return errors.length === 0 ? refresh.status : `${refresh.status} (${errors.slice(0, 2).join('; ').slice(0, 160)})`;
}

interface ModelsValue {
  readonly refresh?: { readonly status: string; readonly errors?: Record<string, string> };
}

interface WatchData {
  readonly kind?: string;
  readonly state?: Record<string, { readonly value?: ModelsValue }>;
  readonly value?: ModelsValue;
}
