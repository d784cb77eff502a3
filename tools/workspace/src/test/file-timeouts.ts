import { innermostRoot } from '../project-batch';

/** The timeouts an Nx project's `vitest.config.ts` sets, which its files keep in a vitest project shared with others. */
export interface ProjectTimeouts {
  /** Absolute. */
  readonly root: string;
  readonly testTimeout?: number;
  readonly hookTimeout?: number;
}

/** The name under which a shared vitest project provides its members' timeouts to the setup file. */
export const PROJECT_TIMEOUTS = 'piProjectTimeouts';

/** The setup file that gives each test file its own project's timeouts. */
export const FILE_TIMEOUTS_SETUP = new URL('./file-timeouts-setup.ts', import.meta.url);

declare module 'vitest' {
  interface ProvidedContext {
    [PROJECT_TIMEOUTS]: ProjectTimeouts[];
  }
}

/** The timeouts of the innermost project holding `file` (absolute), if it sets any. */
export function timeoutsOfFile(
  projects: readonly ProjectTimeouts[],
  file: string,
): { testTimeout?: number; hookTimeout?: number } {
  const root = innermostRoot(
    projects.map((project) => project.root),
    file,
  );
  const { testTimeout, hookTimeout } = projects.find((project) => project.root === root) ?? {};
  return {
    ...(testTimeout === undefined ? {} : { testTimeout }),
    ...(hookTimeout === undefined ? {} : { hookTimeout }),
  };
}
