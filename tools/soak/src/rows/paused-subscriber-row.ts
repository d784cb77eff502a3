import { startBystander } from '../bystander/bystander';
import { count, latencyText, mib, mibChange } from '../figures';
import { startPrompter, promptText } from '../prompter';
import { openRawPeer } from '../raw-peer';
import { judge } from '../row-report';
import { connectClient } from '../session-client';
import { footprintOf, samplePeak } from '../session-footprint';
import { startSessionProgram } from '../session-program';
import type { SoakRow } from '../soak-row';
import { until, waitFor } from '../waiting';

/** The most the session's RSS may grow while it holds frames for a subscriber that reads nothing. */
export const PAUSED_RSS_BOUND_BYTES = 64 * 1024 * 1024;
const WORDS_PER_PROMPT = 2_000;
const WORD_LENGTH = 40;

const WHAT =
  'a raw ws client subscribed to chat.$watch and stopped reading (its socket paused) while another client ran ' +
  'long prompts whose answers stream word by word; a bystander kept calling; then the subscriber read again';

export const pausedSubscriberRow: SoakRow = {
  name: 'paused-subscriber',
  what: WHAT,
  timeLimitMs: (quick) => (quick ? 300_000 : 900_000),
  async run(context) {
    const prompts = context.quick ? 10 : 100;
    const home = await context.home();
    const session = await startSessionProgram(home, home.folders.project);
    context.defer(() => session.stop());
    const bystander = await startBystander(session);
    const client = await connectClient(session);
    context.defer(() => client.close());
    const prompter = await startPrompter(client);
    let frames = 0;
    let bytes = 0;
    const paused = await openRawPeer(session.socketPath, {
      token: session.token,
      onFrame: (text) => {
        frames++;
        bytes += text.length;
      },
    });
    context.defer(() => paused.terminate());
    paused.send(JSON.stringify({ id: 1, method: 'subscription', params: { path: 'chat.$watch' } }));
    await waitFor('the subscriber got no snapshot', () => frames >= 2, 30_000);
    paused.socket.pause();
    const baseline = footprintOf(session.pid);
    const peak = samplePeak(session.pid);
    // A reading subscriber beside the paused one: what it receives is what the paused one is owed.
    let produced = 0;
    let producedBytes = 0;
    const reader = await openRawPeer(session.socketPath, {
      token: session.token,
      onFrame: (text) => {
        produced++;
        producedBytes += text.length;
      },
    });
    context.defer(() => reader.terminate());
    reader.send(JSON.stringify({ id: 1, method: 'subscription', params: { path: 'chat.$watch' } }));
    context.log(`${prompts} prompts of ${WORDS_PER_PROMPT} words while the subscriber is paused`);
    let completed = 0;
    let middle = baseline;
    for (let index = 0; index < prompts && !context.signal.aborted; index++) {
      const settled = await prompter.run(
        promptText(`paused subscriber ${index}`, WORDS_PER_PROMPT, WORD_LENGTH),
        300_000,
      );
      if (settled.outcome === 'completed') completed++;
      if (index === Math.floor(prompts / 2) - 1) middle = footprintOf(session.pid);
    }
    const end = footprintOf(session.pid);
    const top = peak.stop();
    const framesBefore = frames;
    paused.socket.resume();
    const reads = await until(() => frames > framesBefore, 30_000);
    const seen = await bystander.stop();
    const growth = top.rss - baseline.rss;
    return judge('paused-subscriber', {
      what: WHAT,
      counts: [
        `${completed}/${prompts} runs of ${count(WORDS_PER_PROMPT)} words completed`,
        `${count(produced)} watch frames (${mib(producedBytes)}) sent to a reading client meanwhile`,
        `paused subscriber: ${count(framesBefore)} frames before it stopped reading, ${count(frames - framesBefore)} after it read again`,
        `bystander: ${count(seen.calls)} calls, ${seen.failures} failed, ${seen.drops} drops`,
      ],
      figures: [
        `session RSS ${mib(baseline.rss)} → ${mib(middle.rss)} halfway → ${mib(end.rss)} at the end, peak ${mibChange(growth)}`,
        `bystander ${latencyText(seen.latency)}`,
        `${count(Math.round(bytes / 1024))} KiB read by the subscriber in all`,
      ],
      checks: [
        { label: `every run completed (${completed}/${prompts})`, ok: completed === prompts },
        {
          label: `session RSS grew at most ${mib(PAUSED_RSS_BOUND_BYTES)} (${mibChange(growth)})`,
          ok: growth <= PAUSED_RSS_BOUND_BYTES,
        },
        // Only an output well past the bound shows that memory does not follow it; a quick run is too small to.
        {
          label: `the output was at least twice the bound (${mib(producedBytes)})`,
          ok: context.quick || producedBytes >= 2 * PAUSED_RSS_BOUND_BYTES,
        },
        { label: 'the subscriber is served again once it reads', ok: reads },
        {
          label: `the bystander's calls all succeeded (${seen.failures} failed, ${seen.drops} drops: ${seen.failureSamples.join('; ')})`,
          ok: seen.calls > 0 && seen.failures === 0 && seen.drops === 0,
        },
      ],
    });
  },
};
