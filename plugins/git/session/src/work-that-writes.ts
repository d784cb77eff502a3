import type { HarnessEvent } from '@pi/plugin-api';

/**
 * Which harness events mean files may have changed, so the status is checked again without waiting for a watch
 * event (or for the next poll, where nothing is watched). A tool may write (pi cannot tell a reading tool from a
 * writing one: tools are any plugin's), so its result asks for a check, and so does the end of a run in which a tool
 * started (one cancelled mid-way may have written without a result). A plugin's record written outside any run is
 * what a `!` or `!!` command leaves, and such a command may write too. A run that only answered changed nothing:
 * its end asks for no check, so streaming answers do not spawn git (what changes meanwhile in another terminal is
 * seen by the watches, or by polling).
 */
export class WorkThatWrites {
  /** The runs in which a tool started and that have not settled. */
  readonly #runsWithTools = new Set<string>();

  /** Whether `event` should lead to a check. */
  heard(event: HarnessEvent): boolean {
    switch (event.type) {
      case 'tool_started':
        this.#runsWithTools.add(event.operationId);
        return false;
      case 'run_settled':
        return this.#runsWithTools.delete(event.operationId);
      case 'entry_appended': {
        const { entry } = event;
        if (entry.kind === 'message' && entry.message.role === 'tool') return true;
        if (event.operationId !== null) return false;
        return entry.kind === 'custom' || (entry.kind === 'message' && entry.origin !== undefined);
      }
      default:
        return false;
    }
  }
}
