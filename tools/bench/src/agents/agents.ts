import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MODEL_ID, PROVIDER_ID } from './answer-server';
import { npmStartNodeOptions } from './npm-start';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
/** What `npm start` runs once the bundles are fresh. */
export const PI_TUI_BUNDLE = join(ROOT, 'dist/apps/tui/pi-tui.mjs');
const PI_COORDINATOR_BUNDLE = join(ROOT, 'dist/apps/coordinator/pi-coordinator.mjs');
export const BUNDLE_APPS = join(ROOT, 'tools/app-bundle/bin/bundle-apps.mjs');

export type AgentName = 'pi' | 'upstream';

/** The environment variable every process of a benchmarked agent carries, naming the agent's sandbox. */
export const MARKER_VARIABLE = 'PI_BENCH_AGENTS';
export const AGENT_NAMES: readonly AgentName[] = ['pi', 'upstream'];

/** How to start one agent in a sandbox of its own, pointed at the answer server, and how to drive its screen. */
export interface AgentSetup {
  readonly name: AgentName;
  readonly label: string;
  readonly file: string;
  readonly args: readonly string[];
  readonly cwd: string;
  /** The sandbox's directories and `marker`, which every process the agent starts inherits. */
  readonly env: NodeJS.ProcessEnv;
  /** `NAME=value` in the environment of every process of this agent: how they are found for RSS, CPU and stop. */
  readonly marker: string;
  /** True once the first screen shows the editor (the prompt box) ready for typing. */
  readonly ready: (screen: string) => boolean;
  /** Keys that make the agent use the bench's model, and what the screen shows once it does (none if started so). */
  readonly selectModel?: { readonly keys: string; readonly shown: string };
  /** Asks the agent's own way to stop what it left running (pi's coordinator); processes left are killed after. */
  stopOwn(): Promise<void>;
  /** Deletes the sandbox. */
  remove(): Promise<void>;
}

async function createSandbox(name: AgentName) {
  // Short: the session's socket lives under the runtime directory, and a socket path must stay under ~100 bytes.
  const root = await mkdtemp(join(tmpdir(), `pa-${name}-`));
  const dirs = {
    home: join(root, 'home'),
    config: join(root, 'config'),
    data: join(root, 'data'),
    run: join(root, 'run'),
    project: join(root, 'project'),
  };
  await Promise.all(Object.values(dirs).map((path) => mkdir(path, { recursive: true, mode: 0o700 })));
  const marker = `${MARKER_VARIABLE}=${root}`;
  const env: NodeJS.ProcessEnv = {
    PATH: process.env['PATH'],
    HOME: dirs.home,
    TERM: 'xterm-256color',
    LANG: 'C.UTF-8',
    XDG_CONFIG_HOME: dirs.config,
    XDG_DATA_HOME: dirs.data,
    XDG_RUNTIME_DIR: dirs.run,
    [MARKER_VARIABLE]: root,
  };
  return { root, dirs, marker, env, remove: () => rm(root, { recursive: true, force: true }) };
}

/** This project as `npm start` runs it: the bundled pi-tui with `--start` (coordinator, then a session). */
export async function piAgent(baseUrl: string): Promise<AgentSetup> {
  const box = await createSandbox('pi');
  const configDir = join(box.dirs.config, 'pi');
  await mkdir(configDir, { recursive: true, mode: 0o700 });
  const models = {
    providers: { [PROVIDER_ID]: { baseUrl, api: 'openai-completions', models: [{ id: MODEL_ID }] } },
  };
  await writeFile(join(configDir, 'models.json'), JSON.stringify(models, null, 2));
  return {
    name: 'pi',
    label: 'this project',
    file: process.execPath,
    // With the node options npm start passes (the TUI's young generation: docs/decisions.md).
    args: [...(await npmStartNodeOptions(join(ROOT, 'package.json'))), PI_TUI_BUNDLE, '--start'],
    cwd: box.dirs.project,
    env: box.env,
    marker: box.marker,
    ready: (screen) => screen.includes('● connected'),
    selectModel: { keys: `/model ${PROVIDER_ID}/${MODEL_ID}\r`, shown: MODEL_ID },
    stopOwn: () =>
      new Promise((resolve) => {
        execFile(process.execPath, [PI_COORDINATOR_BUNDLE, 'stop'], { env: box.env, timeout: 15_000 }, () => resolve());
      }),
    remove: box.remove,
  };
}

/** The pinned `@mariozechner/pi-coding-agent` (a dev dependency of this package), its config in the sandbox. */
export async function upstreamAgent(baseUrl: string): Promise<AgentSetup> {
  const cli = join(dirname(upstreamEntry()), 'cli.js');
  const box = await createSandbox('upstream');
  const agentDir = join(box.root, 'agent');
  await mkdir(agentDir, { recursive: true, mode: 0o700 });
  const models = {
    providers: {
      [PROVIDER_ID]: {
        baseUrl,
        api: 'openai-completions',
        apiKey: 'bench',
        compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
        models: [{ id: MODEL_ID }],
      },
    },
  };
  await writeFile(join(agentDir, 'models.json'), JSON.stringify(models, null, 2));
  return {
    name: 'upstream',
    label: 'upstream 0.73.1',
    file: process.execPath,
    args: [cli, '--model', `${PROVIDER_ID}/${MODEL_ID}`],
    cwd: box.dirs.project,
    // No update check, package check or telemetry: nothing but the answer server on the network.
    env: { ...box.env, PI_CODING_AGENT_DIR: agentDir, PI_OFFLINE: '1', PI_SKIP_VERSION_CHECK: '1', PI_TELEMETRY: '0' },
    marker: box.marker,
    ready: (screen) => screen.includes(MODEL_ID),
    stopOwn: () => Promise.resolve(),
    remove: box.remove,
  };
}

export function setUpAgent(name: AgentName, baseUrl: string): Promise<AgentSetup> {
  return name === 'pi' ? piAgent(baseUrl) : upstreamAgent(baseUrl);
}

function upstreamEntry(): string {
  try {
    return fileURLToPath(import.meta.resolve('@mariozechner/pi-coding-agent'));
  } catch (error) {
    throw new Error(
      'The upstream agent is not installed: it is a dev dependency of @pi/bench, so run `npm install` ' +
        `(not --omit=dev), or pass --only=pi (${error instanceof Error ? error.message : String(error)})`,
    );
  }
}
