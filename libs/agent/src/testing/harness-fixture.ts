import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { afterEach, beforeEach } from 'vitest';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentHarness, HarnessOptions } from '../harness-types';
import type { HarnessEvent, RunSettings } from '@pi/agent-contract';
import type { ModelProvider } from '../provider';
import type { AnyAgentTool } from '@pi/agent-contract';

/** A private temporary directory for session files; `remove` deletes it with everything inside. */
export interface SessionDirectory {
  dir: string;
  /** A session file path inside it (the file itself does not exist yet). */
  file: string;
  remove(): Promise<void>;
}

export async function createSessionDirectory(): Promise<SessionDirectory> {
  const dir = await mkdtemp(join(tmpdir(), 'pi-agent-'));
  return {
    dir,
    file: join(dir, 'sessions', 'test-session.jsonl'),
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}

/** What a harness test file shares: a fresh session directory per test, and the harnesses to close after it. */
export interface HarnessTestBed {
  /** This test's directory (valid inside a test). */
  readonly directory: SessionDirectory;
  /** Harnesses pushed here are closed after each test, before the directory is removed. */
  readonly open: AgentHarness[];
}

/** Registers the hooks of a harness test file (call it once, at the top level). */
export function harnessTestBed(): HarnessTestBed {
  let directory: SessionDirectory | undefined;
  const open: AgentHarness[] = [];
  beforeEach(async () => {
    directory = await createSessionDirectory();
  });
  afterEach(async () => {
    for (const harness of open.splice(0)) await harness.close();
    await directory?.remove();
    directory = undefined;
  });
  return {
    get directory() {
      if (directory === undefined) throw new Error('The session directory exists only inside a test');
      return directory;
    },
    open,
  };
}

export interface TestHarnessSetup {
  file: string;
  providers?: readonly ModelProvider[];
  tools?: readonly AnyAgentTool[];
  /** Defaults to the first provider's first model, thinking off. Mutate `settings.current` to change it. */
  settings?: { current: RunSettings };
  maxTurns?: number;
  /** A disk that fails on request (FaultyDisk.wrap). */
  appendHandle?: HarnessOptions['appendHandle'];
}

/** HarnessOptions for a test: registries as plain arrays, settings as a mutable box. */
export function testHarnessOptions(setup: TestHarnessSetup): HarnessOptions {
  const providers = new Map((setup.providers ?? []).map((provider) => [provider.id, provider]));
  const tools = new Map((setup.tools ?? []).map((tool) => [tool.name, tool]));
  const first = setup.providers?.[0];
  const firstModel = first?.models()[0];
  const settings = setup.settings ?? {
    current: {
      model: first && firstModel ? { provider: first.id, modelId: firstModel.modelId } : null,
      thinkingLevel: 'off',
    },
  };
  return {
    file: setup.file,
    cwd: '/workspace',
    tools: () => tools,
    providers: () => providers,
    settings: () => settings.current,
    ...(setup.maxTurns !== undefined ? { maxTurns: setup.maxTurns } : {}),
    ...(setup.appendHandle !== undefined ? { appendHandle: setup.appendHandle } : {}),
  };
}

/** Every event the harness emits from now on, in order. */
export function recordEvents(harness: AgentHarness): HarnessEvent[] {
  const events: HarnessEvent[] = [];
  harness.events.subscribe((event) => events.push(event));
  return events;
}

/** Resolves with the first event from now on that matches. */
export function nextEvent<T extends HarnessEvent['type']>(
  harness: AgentHarness,
  type: T,
  matches: (event: Extract<HarnessEvent, { type: T }>) => boolean = () => true,
): Promise<Extract<HarnessEvent, { type: T }>> {
  return new Promise((resolve) => {
    const unsubscribe = harness.events.subscribe((event) => {
      if (event.type !== type) return;
      const typed = event as Extract<HarnessEvent, { type: T }>;
      if (!matches(typed)) return;
      unsubscribe();
      resolve(typed);
    });
  });
}

/** The session file's lines as parsed JSON (header first). */
export async function readSessionLines(file: string): Promise<Array<Record<string, unknown>>> {
  const text = await readFile(file, 'utf8');
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}
