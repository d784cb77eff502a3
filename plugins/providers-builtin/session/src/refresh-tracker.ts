import type { Context } from '@pi/context';
import type { RefreshStatus } from '@pi/providers-builtin';

/**
 * The refresh status under concurrent refreshes: `refreshing` while any runs; when the last one ends, the
 * outcome of the latest that finished. A refresh that was aborted contributes nothing, so aborting the only
 * running refresh puts back the status from before it. Hot reloads report outcomes too; while a refresh runs
 * they wait, since the refresh re-reads the same file.
 */
export class RefreshTracker {
  readonly #publish: (status: RefreshStatus, context: Context) => void;
  #active = 0;
  #settled: RefreshStatus = { status: 'idle' };

  constructor(publish: (status: RefreshStatus, context: Context) => void) {
    this.#publish = publish;
  }

  started(context: Context): void {
    this.#active += 1;
    this.#publish({ status: 'refreshing' }, context);
  }

  finished(outcome: RefreshStatus, context: Context): void {
    this.#active -= 1;
    this.report(outcome, context);
  }

  abandoned(context: Context): void {
    this.#active -= 1;
    if (this.#active === 0) this.#publish(this.#settled, context);
  }

  report(outcome: RefreshStatus, context: Context): void {
    this.#settled = outcome;
    if (this.#active === 0) this.#publish(outcome, context);
  }
}
