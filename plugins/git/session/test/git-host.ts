import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { Git, type GitEvent, type GitService, type GitStatus } from '@pi/git';
import { startTestSessionHost, type TestFacet, type TestSessionHost } from '@pi/host-session/testing';
import { eventually, type TransportKind } from '@pi/test-support';
import { createGitFacet, pluginId, type GitFacetOptions, type WatchMode } from '../src/index';
import { GIT_TEST_ENV, initRepository, removeDirectory, temporaryDirectory } from '../src/testing/git-repository';

// Registered per test: with isolate off a worker imports this module once for many test files, so a hook
// registered at import would run for the first file only.

export interface GitHost {
  readonly fixture: TestSessionHost;
  /** The session's working directory (a repository unless started with `repository: false`). */
  readonly project: string;
  /** Every way of noticing changes the facet went through, in order. */
  readonly modes: WatchMode[];
  /** A new client's Git proxy, with every event it receives recorded. */
  client(): Promise<GitClient>;
  /** Waits until the facet watches (or polls) the repository and has checked once since. */
  watching(mode?: WatchMode): Promise<void>;
}

export interface GitClient {
  readonly git: GitService;
  readonly events: GitEvent[];
  /** Waits until the client's replica satisfies `accept`. */
  until(accept: (status: GitStatus) => boolean): Promise<GitStatus>;
}

export interface GitHostOptions {
  readonly transport: TransportKind;
  /** False: the session runs in a directory outside any repository. */
  readonly repository?: boolean;
  readonly options?: GitFacetOptions;
  /** Facets after @pi/git in the manifest (a model and tools, for tests that run the harness). */
  readonly after?: readonly TestFacet[];
}

/**
 * A real session host running the git facet in `<tmp>/project`, a repository with one commit on `main` unless
 * asked otherwise. Git runs with GIT_TEST_ENV, so the machine's git configuration never matters. Closed and
 * removed after each test.
 */
export async function startGitHost(options: GitHostOptions): Promise<GitHost> {
  const directory = await temporaryDirectory();
  onTestFinished(() => removeDirectory(directory));
  const project = join(directory, 'project');
  if (options.repository === false) await mkdir(project);
  else await initRepository(project);
  const modes: WatchMode[] = [];
  const fixture = await startTestSessionHost({
    directory,
    transport: options.transport,
    facets: [
      {
        id: pluginId,
        facet: createGitFacet({
          env: GIT_TEST_ENV,
          debounceMs: 20,
          maxDelayMs: 200,
          pollIntervalMs: 50,
          onWatchModeChange: (mode) => modes.push(mode),
          ...options.options,
        }),
      },
      ...(options.after ?? []),
    ],
  });
  onTestFinished(() => fixture.close());
  const client = async (): Promise<GitClient> => {
    const git = await (await fixture.connect()).use(Git);
    const events: GitEvent[] = [];
    git.events.subscribe((event) => events.push(event));
    return {
      git,
      events,
      async until(accept) {
        await eventually(() => accept(git.status.value));
        return git.status.value;
      },
    };
  };
  return {
    fixture,
    project,
    modes,
    client,
    async watching(mode) {
      await eventually(() =>
        mode === undefined ? modes.at(-1) !== undefined && modes.at(-1) !== 'none' : modes.at(-1) === mode,
      );
      // The check every new watch is followed by, so nothing that happened before it is left unseen.
      await (await client()).git.refresh(BACKGROUND_CONTEXT);
    },
  };
}
