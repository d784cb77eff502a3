import type { AgentHarness } from '@pi/agent';

/**
 * One log line each time the session file becomes unwritable, its cause changes, or it can be written again, so
 * the session's log (its process's stderr) says when and why prompts were refused. Returns the remover.
 */
export function logSessionFileFaults(harness: AgentHarness, file: string, log: (line: string) => void): () => void {
  return harness.events.subscribe((event) => {
    if (event.type !== 'session_file_fault') return;
    log(
      event.fault === null
        ? `the session file ${file} can be written again`
        : `${event.fault.message}; what must be recorded is refused until a write succeeds`,
    );
  });
}
