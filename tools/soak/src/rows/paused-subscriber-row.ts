import { startBystander } from '../bystander/bystander';
import { count, latencyText, mib, mibChange } from '../figures';
import { startPrompter, promptText, type Prompter } from '../prompter';
import { judge } from '../row-report';
import { connectClient } from '../session-client';
import { footprintOf, samplePeak } from '../session-footprint';
import { startSessionProgram, type SessionProgram } from '../session-program';
import type { RowContext, SoakRow } from '../soak-row';
import { until } from '../waiting';
import { subscribeRaw } from '../watch-subscriber';

/**
 * The most a paused subscriber may cost: the session with one may grow at most this much more than an identical
 * session without one, fed the same prompts in step (the transcript itself, and V8's own growth, cost both alike).
 */
export const PAUSED_RSS_BOUND_BYTES = 64 * 1024 * 1024;
const WORDS_PER_PROMPT = 2_000;
const WORD_LENGTH = 40;

const WHAT =
  'two pi-sessions, each with a reading chat.$watch subscriber, fed the same long prompts in step (answers stream ' +
  'word by word); on one, a second raw ws subscriber stopped reading (its socket paused) and a bystander kept ' +
  'calling; their RSS growth compared; then the subscriber read again';

export const pausedSubscriberRow: SoakRow = {
  name: 'paused-subscriber',
  what: WHAT,
  timeLimitMs: (quick) => (quick ? 300_000 : 900_000),
  async run(context) {
    const prompts = context.quick ? 10 : 120;
    const home = await context.home();
    const [tested, control] = await Promise.all([
      startSessionProgram(home, home.folders.project),
      startSessionProgram(home, home.folders['other-project']),
    ]);
    context.defer(() => Promise.all([tested.stop(), control.stop()]));
    const bystander = await startBystander(tested);
    const [prompter, controlPrompter] = await Promise.all([prompterOf(context, tested), prompterOf(context, control)]);
    const paused = await subscribeRaw(tested, 'chat');
    context.defer(() => paused.peer.terminate());
    // A reading subscriber beside the paused one (what it receives is what the paused one is owed), and one on the
    // control, so the paused subscriber is the only difference between the two.
    const [reader, controlReader] = await Promise.all([subscribeRaw(tested, 'chat'), subscribeRaw(control, 'chat')]);
    context.defer(() => [reader, controlReader].forEach((subscriber) => subscriber.peer.terminate()));
    paused.pause();
    const baseline = { tested: footprintOf(tested.pid), control: footprintOf(control.pid) };
    const peaks = { tested: samplePeak(tested.pid), control: samplePeak(control.pid) };
    context.log(`${prompts} prompts of ${WORDS_PER_PROMPT} words to both sessions; the subscriber is paused`);
    let completed = 0;
    for (let index = 0; index < prompts && !context.signal.aborted; index++) {
      const text = promptText(`paused subscriber ${index}`, WORDS_PER_PROMPT, WORD_LENGTH);
      const settled = await Promise.all([prompter.run(text, 300_000), controlPrompter.run(text, 300_000)]);
      if (settled.every((run) => run.outcome === 'completed')) completed++;
    }
    const peak = { tested: peaks.tested.stop(), control: peaks.control.stop() };
    const growth = {
      tested: peak.tested.rss - baseline.tested.rss,
      control: peak.control.rss - baseline.control.rss,
    };
    const held = paused.frames();
    paused.resume();
    const readsAgain = await until(() => paused.frames() > held, 30_000);
    const seen = await bystander.stop();
    const cost = growth.tested - growth.control;
    return judge('paused-subscriber', {
      what: WHAT,
      counts: [
        `${completed}/${prompts} prompt pairs of ${count(WORDS_PER_PROMPT)} words completed`,
        `${count(reader.frames())} watch frames (${mib(reader.bytes())}) sent to a reading subscriber meanwhile`,
        `paused subscriber: ${count(held)} frames before it stopped reading, ${count(paused.frames() - held)} after it read again`,
        `bystander: ${count(seen.calls)} calls, ${seen.failures} failed, ${seen.drops} drops`,
      ],
      figures: [
        `RSS with the paused subscriber ${mib(baseline.tested.rss)}, peak ${mibChange(growth.tested)}`,
        `RSS of the control ${mib(baseline.control.rss)}, peak ${mibChange(growth.control)}`,
        `the paused subscriber's cost ${mibChange(cost)}`,
        `bystander ${latencyText(seen.latency)}`,
      ],
      checks: [
        { label: `every prompt completed (${completed}/${prompts})`, ok: completed === prompts },
        {
          label: `the paused subscriber cost at most ${mib(PAUSED_RSS_BOUND_BYTES)} of RSS over the control (${mibChange(cost)})`,
          ok: cost <= PAUSED_RSS_BOUND_BYTES,
        },
        // Only an output well past the bound shows that memory does not follow it; a quick run is too small to.
        {
          label: `the output was at least twice the bound (${mib(reader.bytes())})`,
          ok: context.quick || reader.bytes() >= 2 * PAUSED_RSS_BOUND_BYTES,
        },
        { label: 'the subscriber is served again once it reads', ok: readsAgain },
        {
          label: `the bystander's calls all succeeded (${seen.failures} failed, ${seen.drops} drops: ${seen.failureSamples.join('; ')})`,
          ok: seen.calls > 0 && seen.failures === 0 && seen.drops === 0,
        },
      ],
    });
  },
};

async function prompterOf(context: RowContext, session: SessionProgram): Promise<Prompter> {
  const client = await connectClient(session);
  context.defer(() => client.close());
  return startPrompter(client);
}
