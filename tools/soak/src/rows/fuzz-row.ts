import { isRunning } from '@pi/connection-files';
import { startBystander } from '../bystander/bystander';
import { count, latencyText, mibChange } from '../figures';
import { fuzzSession } from '../fuzz/fuzz-driver';
import { rssBytes } from '../proc-stats';
import { judge } from '../row-report';
import { connectClient, fuzzTargetsOf } from '../session-client';
import { startSessionProgram } from '../session-program';
import type { SoakRow } from '../soak-row';

const WHAT =
  'fuzzed frames (malformed JSON, wrong types, huge ids, deep nesting, unknown methods, oversize frames, random ' +
  'bytes, hostile valid frames, bad first frames) from 4 raw ws connections against a live pi-session, while a ' +
  'bystander client in its own process kept calling';

export const fuzzRow: SoakRow = {
  name: 'fuzz',
  what: WHAT,
  timeLimitMs: (quick) => (quick ? 180_000 : 900_000),
  async run(context) {
    const frames = context.quick ? 5_000 : 100_000;
    const home = await context.home();
    const session = await startSessionProgram(home, home.folders.project);
    let crashed = false;
    void session.program.exited.then(() => (crashed = true));
    context.defer(() => session.stop());

    const probe = await connectClient(session);
    const targets = await fuzzTargetsOf(probe);
    probe.close();
    const rssBefore = rssBytes(session.pid) ?? 0;
    const bystander = await startBystander(session);
    context.log(`sending ${count(frames)} frames (seed ${context.seed}) at ${targets.methods.length} methods`);
    const started = performance.now();
    const tally = await fuzzSession({
      socketPath: session.socketPath,
      token: session.token,
      targets,
      seed: context.seed,
      frames,
      peers: 4,
      signal: context.signal,
      sessionAlive: () => !crashed,
    });
    const seconds = (performance.now() - started) / 1000;
    const seen = await bystander.stop();
    const rssAfter = rssBytes(session.pid) ?? 0;
    // A new client after the storm: the session still serves.
    const after = crashed ? undefined : await connectClient(session).catch(() => undefined);
    const servesAfter =
      after !== undefined &&
      (await after.call('chat', 'operation', [{ operationId: 'soak-after-fuzz' }]).then(
        () => true,
        () => false,
      ));
    after?.close();
    const alive = !crashed && isRunning(session.pid);
    const closes = Object.entries(tally.closes)
      .map(([code, times]) => `${code}×${count(times)}`)
      .join(' ');
    return judge('fuzz', {
      what: WHAT,
      counts: [
        `${count(tally.sent)} frames (${count(Math.round(tally.bytes / 1024 / 1024))} MiB), seed ${context.seed}`,
        `${count(tally.connections)} connections; host closes ${closes || 'none'}`,
        `${alive ? 0 : 1} crashes, ${tally.stalls} stalled connections, ${tally.leaks} stack/path leaks`,
        `bystander: ${count(seen.calls)} calls, ${seen.failures} failed, ${seen.drops} drops`,
      ],
      figures: [
        `${count(Math.round(tally.sent / seconds))} frames/s over ${seconds.toFixed(0)} s`,
        `bystander ${latencyText(seen.latency)}`,
        `session RSS ${mibChange(rssAfter - rssBefore)} (${count(Math.round(rssAfter / 1024 / 1024))} MiB)`,
      ],
      checks: [
        { label: `at least ${count(frames)} frames sent (sent ${count(tally.sent)})`, ok: tally.sent >= frames },
        { label: 'the session did not crash', ok: alive },
        { label: 'a new client is served after the fuzzing', ok: servesAfter },
        { label: `no connection stalled (${tally.stalls})`, ok: tally.stalls === 0 },
        { label: `no reply leaked a stack or path (${tally.leakSamples.join(' | ')})`, ok: tally.leaks === 0 },
        {
          label: `the bystander's calls all succeeded (${seen.failures} failed, ${seen.drops} drops: ${seen.failureSamples.join('; ')})`,
          ok: seen.calls > 0 && seen.failures === 0 && seen.drops === 0,
        },
      ],
    });
  },
};
