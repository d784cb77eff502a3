import { count } from '../figures';
import { judge } from '../row-report';
import type { SoakRow } from '../soak-row';
import { runKillCase, type KillCaseResult, type KillTarget } from './kill-case';

const TARGETS: readonly KillTarget[] = ['session', 'coordinator', 'both'];
const WHAT =
  'a coordinator-run pi-session prompted through @pi/client; mid-run, kill -9 of the session, the coordinator, ' +
  'or both; recovered as a user would (pi-coordinator start, resume); then a run must complete, every announced ' +
  'transcript entry be on disk, and pi-coordinator stop leave nothing running';

export const killRow: SoakRow = {
  name: 'kill',
  what: WHAT,
  timeLimitMs: (quick) => (quick ? 600_000 : 1_200_000),
  async run(context) {
    const rounds = context.quick ? 1 : 2;
    const results: KillCaseResult[] = [];
    for (const target of TARGETS) results.push(await runKillCase(context, target, rounds));
    const total = (pick: (result: KillCaseResult) => number) => results.reduce((sum, r) => sum + pick(r), 0);
    return judge('kill', {
      what: WHAT,
      counts: results.map(
        (r) =>
          `${r.target}: ${r.kills} kills, ${count(r.acknowledged)} entries, ${r.lost} lost, ${r.recovered}/${r.kills} recovered, ${r.orphans} orphans, ${r.duplicates} duplicates`,
      ),
      figures: results.map(
        (r) => `${r.target}: kill → completed run ${r.recoverySeconds.map((s) => `${s.toFixed(1)} s`).join(', ')}`,
      ),
      checks: [
        { label: `0 transcript entries lost (${total((r) => r.lost)})`, ok: total((r) => r.lost) === 0 },
        {
          label: `a run completed after every recovery (${total((r) => r.recovered)} of ${total((r) => r.kills)})`,
          ok: total((r) => r.recovered) === total((r) => r.kills),
        },
        { label: `0 orphan processes (${total((r) => r.orphans)})`, ok: total((r) => r.orphans) === 0 },
        {
          label: `the directory listed every killed session closed (${total((r) => r.notShownClosed)} not)`,
          ok: total((r) => r.notShownClosed) === 0,
        },
        { label: `0 duplicate processes (${total((r) => r.duplicates)})`, ok: total((r) => r.duplicates) === 0 },
      ],
    });
  },
};
