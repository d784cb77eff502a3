import { BUILTIN_PROVIDERS } from '@pi/model-providers';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CodingAgentSessionPluginContext, SessionFacet } from '@pi/plugin-api';
import { startTestSessionHost, type TestSessionHost } from '@pi/host-session/testing';
import { Models, type ModelsService } from '@pi/providers-builtin';
import type { TransportKind } from '@pi/test-support';
import { createProvidersBuiltinFacet, type ProvidersBuiltinOptions } from '../providers-facet';

export interface ModelsHost {
  readonly fixture: TestSessionHost;
  readonly modelsFile: string;
  /** The facet context of a plugin after @pi/providers-builtin, for local checks (prompting the lane). */
  readonly probe: CodingAgentSessionPluginContext;
  /** A new client's Models proxy. */
  models(): Promise<ModelsService>;
  writeModelsFile(content: unknown): Promise<void>;
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

export interface ModelsHostOptions {
  readonly transport: TransportKind;
  /** Written to `<configDir>/models.json` before the host starts. */
  readonly modelsFile?: unknown;
  /** Facets placed before @pi/providers-builtin in the manifest (stand-ins for accounts and settings). */
  readonly before?: ReadonlyArray<{ id: string; facet: SessionFacet }>;
  readonly options?: ProvidersBuiltinOptions;
}

/** A session host running @pi/providers-builtin with env and fetch injected, on a fresh directory. */
export async function startModelsHost(options: ModelsHostOptions): Promise<ModelsHost> {
  const directory = await mkdtemp(join(tmpdir(), 'pi-models-'));
  const configDir = join(directory, 'config');
  const modelsFile = join(configDir, 'models.json');
  const writeModelsFile = async (content: unknown) => {
    await mkdir(configDir, { recursive: true });
    await writeFile(modelsFile, typeof content === 'string' ? content : JSON.stringify(content));
  };
  if (options.modelsFile !== undefined) await writeModelsFile(options.modelsFile);
  let probe: CodingAgentSessionPluginContext | undefined;
  const fixture = await startTestSessionHost({
    directory,
    transport: options.transport,
    facets: [
      ...(options.before ?? []),
      {
        id: '@pi/providers-builtin',
        facet: createProvidersBuiltinFacet({ env: {}, watchDebounceMs: 10, ...options.options }),
      },
      { id: 'probe', facet: (context) => void (probe = context) },
    ],
  });
  if (probe === undefined) throw new Error('the probe facet did not run');
  const close = async () => {
    await fixture.close();
    await rm(directory, { recursive: true, force: true });
  };
  return {
    fixture,
    modelsFile,
    probe,
    models: async () => (await fixture.connect()).use(Models),
    writeModelsFile,
    close,
    [Symbol.asyncDispose]: close,
  };
}

/** A models.json with one OpenAI-compatible provider. */
export function modelsJson(
  providers: Record<
    string,
    { baseUrl: string; apiKeyEnv?: string; models: Array<{ id: string; name?: string; reasoning?: boolean }> }
  >,
) {
  return { providers };
}

/** The catalogue without the built-in network providers, which every session offers: what a test configured. */
export function withoutBuiltins<T extends { provider: string }>(models: readonly T[]): T[] {
  return models.filter((model) => !BUILTIN_PROVIDERS.some((provider) => provider.id === model.provider));
}
