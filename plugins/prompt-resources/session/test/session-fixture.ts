import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, onTestFinished } from 'vitest';
import { z } from 'zod';
import { createScriptedProvider, type ScriptedProvider } from '@pi/agent/testing';
import { modelProviderFacet, startTestSessionHost, type TestSessionHost } from '@pi/host-session/testing';
import {
  BACKGROUND_CONTEXT,
  Diagnostics,
  type CodingAgentSessionPluginContext,
  type DiagnosticsService,
  type SessionFacet,
} from '@pi/plugin-api';
import { PromptResources, type PromptResourcesService } from '@pi/prompt-resources';
import { createPromptResourcesFacet, pluginId, type PackageResourceDirectories } from '../src/index';

/** A session running the plugin on files written first (paths relative to the test's directory). */
export interface ResourcesSession {
  readonly fixture: TestSessionHost;
  /** `<directory>/project`, the session's working directory. */
  readonly project: string;
  readonly service: PromptResourcesService;
  readonly diagnostics: DiagnosticsService;
  readonly provider: ScriptedProvider;
  /** Runs one prompt to its end and returns the system prompt its model request carried. */
  ask(text: string): Promise<string | undefined>;
}

export interface ResourcesSessionOptions {
  readonly transport: 'loopback' | 'websocket';
  readonly files: Readonly<Record<string, string | Uint8Array>>;
  /** Tools the model is offered (each does nothing); `read` by default. */
  readonly tools?: readonly string[];
  /** Relative to the test's directory; the home directory is far away by default. */
  readonly home?: string;
  /** Installed packages' skills and prompts directories, relative to the test's directory; absent: those `pi install` put in the config dir and the project. */
  readonly packages?: readonly PackageResourceDirectories[];
}

/** An earlier plugin's system prompt, as pi's own would be: the skills go after it. */
const BASE_PROMPT = 'You are a test model.';

export async function startResourcesSession(options: ResourcesSessionOptions): Promise<ResourcesSession> {
  const directory = await mkdtemp(join(tmpdir(), 'pi-prompt-resources-'));
  const started: { fixture?: TestSessionHost } = {};
  onTestFinished(async () => {
    await started.fixture?.close();
    await rm(directory, { recursive: true, force: true });
  });
  await mkdir(join(directory, 'project'), { recursive: true });
  for (const [path, text] of Object.entries(options.files)) {
    await mkdir(join(directory, path, '..'), { recursive: true });
    await writeFile(join(directory, path), text);
  }
  const reply = [{ type: 'text_delta', delta: 'ok' } as const, { type: 'done', stopReason: 'stop' } as const];
  const provider = createScriptedProvider({ turns: [reply, reply, reply] });
  let driver: CodingAgentSessionPluginContext | undefined;
  const fixture = await startTestSessionHost({
    transport: options.transport,
    directory,
    facets: [
      { id: '@test/model', facet: modelProviderFacet(provider) },
      { id: '@test/tools', facet: toolsFacet(options.tools ?? ['read']) },
      { id: '@test/base-prompt', facet: (context) => void context.hook('beforeModelRequest', basePrompt) },
      {
        id: pluginId,
        facet: createPromptResourcesFacet({
          homeDir: options.home === undefined ? join(directory, 'elsewhere') : join(directory, options.home),
          ...(options.packages === undefined ? {} : { packageDirectories: packagesIn(directory, options.packages) }),
        }),
      },
      { id: '@test/driver', facet: (context) => void (driver = context) },
    ],
  });
  started.fixture = fixture;
  if (driver === undefined) throw new Error('the driver facet did not run');
  const { agent } = driver;
  const client = await fixture.connect();
  return {
    fixture,
    project: join(directory, 'project'),
    service: await client.use(PromptResources),
    diagnostics: await client.use(Diagnostics),
    provider,
    async ask(text) {
      const accepted = await agent.main.prompt(
        [{ role: 'user', content: [{ type: 'text', text }] }],
        BACKGROUND_CONTEXT,
      );
      const { operationId } = accepted._unsafeUnwrap();
      expect((await agent.main.settled(operationId)).outcome).toBe('completed');
      return provider.requests.at(-1)?.request.systemPrompt;
    },
  };
}

function packagesIn(directory: string, packages: readonly PackageResourceDirectories[]) {
  return async () =>
    packages.map((dirs) => ({
      skills: dirs.skills.map((path) => join(directory, path)),
      prompts: dirs.prompts.map((path) => join(directory, path)),
    }));
}

function basePrompt(request: { readonly systemPrompt: string }) {
  return { systemPrompt: request.systemPrompt === '' ? BASE_PROMPT : `${BASE_PROMPT}\n\n${request.systemPrompt}` };
}

function toolsFacet(names: readonly string[]): SessionFacet {
  return (context) => {
    for (const name of names) {
      context.tools.add((draft) =>
        draft.set(name, {
          name,
          label: name,
          description: `The ${name} tool.`,
          executionMode: 'sequential',
          parameters: z.object({}),
          execute: async () => ({ content: [{ type: 'text', text: 'ok' }], details: null }),
        }),
      );
    }
  };
}

/** A SKILL.md with this frontmatter and body. */
export function skillFile(frontmatter: Readonly<Record<string, string | boolean>>, body = 'Do it well.'): string {
  const lines = Object.entries(frontmatter).map(([key, value]) => `${key}: ${JSON.stringify(value)}`);
  return ['---', ...lines, '---', '', body, ''].join('\n');
}
