import { setTimeout as sleep } from 'node:timers/promises';
import { startBystander } from '../bystander/bystander';
import type { BystanderStats } from '../bystander/bystander-protocol';
import { count, latencyText, medianOf, ms } from '../figures';
import { judge } from '../row-report';
import { startSessionProgram } from '../session-program';
import type { SoakRow } from '../soak-row';
import { floodSubscriptions, type FloodOutcome } from '../subscription-flood';

/** The longest a bystander's call may take while another connection floods the host with subscriptions. */
export const FLOOD_DELAY_BOUND_MS = 1_000;
const BASELINE_MS = 3_000;
const BETWEEN_ROUNDS_MS = 1_000;

const WHAT =
  'one authenticated raw ws connection sent subscription requests (chat.$watch) as fast as its socket took them, ' +
  'while a bystander client in its own process kept calling; repeated with a new connection each round, and the ' +
  "median of the rounds' slowest bystander calls judged (one slow call on a shared machine is noise, every round's is not)";

export const subscriptionFloodRow: SoakRow = {
  name: 'subscription-flood',
  what: WHAT,
  timeLimitMs: () => 420_000,
  async run(context) {
    const subscriptions = context.quick ? 2_000 : 10_000;
    const rounds = context.quick ? 1 : 3;
    const home = await context.home();
    const session = await startSessionProgram(home, home.folders.project);
    context.defer(() => session.stop());
    const bystander = await startBystander(session);
    await sleep(BASELINE_MS);
    const before = await bystander.window();
    const floods: FloodOutcome[] = [];
    const windows: BystanderStats[] = [];
    for (let round = 1; round <= rounds && !context.signal.aborted; round++) {
      context.log(`round ${round}: ${count(subscriptions)} subscriptions on one connection`);
      await bystander.window();
      floods.push(await floodSubscriptions(session, subscriptions));
      windows.push(await bystander.window());
      await sleep(BETWEEN_ROUNDS_MS);
    }
    const total = await bystander.stop();
    const slowest = medianOf(windows.map((window) => window.latency.max));
    const sum = (pick: (flood: FloodOutcome) => number) => floods.reduce((all, flood) => all + pick(flood), 0);
    return judge('subscription-flood', {
      what: WHAT,
      counts: [
        `${rounds} × ${count(subscriptions)} subscriptions: ${count(sum((f) => f.started))} started, ${count(sum((f) => f.refused))} refused, ${count(sum((f) => f.sent - f.answered))} unanswered`,
        `bystander during the floods: ${count(windows.reduce((all, w) => all + w.calls, 0))} calls, ${total.failures} failed, ${total.drops} drops`,
      ],
      figures: [
        `floods answered in ${floods.map((flood) => ms(flood.ms)).join(', ')}`,
        `bystander before: ${latencyText(before.latency)}`,
        ...windows.map((window, index) => `bystander, flood ${index + 1}: ${latencyText(window.latency)}`),
      ],
      checks: [
        {
          label: `every subscription answered (${count(sum((f) => f.answered))} of ${count(rounds * subscriptions)})`,
          ok: sum((f) => f.answered) === rounds * subscriptions,
        },
        {
          label: `the slowest bystander call of a flood, median over ${rounds} rounds, took at most ${ms(FLOOD_DELAY_BOUND_MS)} (${ms(slowest)})`,
          ok: windows.every((window) => window.calls > 0) && slowest <= FLOOD_DELAY_BOUND_MS,
        },
        {
          label: `the bystander's calls all succeeded (${total.failures} failed, ${total.drops} drops: ${total.failureSamples.join('; ')})`,
          ok: total.calls > 0 && total.failures === 0 && total.drops === 0,
        },
      ],
    });
  },
};
