import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_MANIFEST } from '@pi/builtin-plugins';
import type { FakeChatServer } from '@pi/model-providers/testing';
import { PLUGIN_API_VERSION } from '@pi/plugin-api';
import { batchTypecheckFinished } from '@pi/workspace';
import { buildPackage, packPackages, PUBLISHED_PACKAGES, type BuiltPackage } from '../src/index';
import { runNpm } from '../src/npm';
import { readManifest } from '../src/workspace-packages';
import { WORKSPACE_ROOT } from '../src/workspace-root';
import { createConsumerFolder, type ConsumerFolder } from './consumer-folder';
import { startModelServer } from './model-server';
import { startSessionHost, type SessionHost } from './session-host';
import { generateStandalonePlugin } from './standalone-plugin';

const CONSUMER_FIXTURE = join(WORKSPACE_ROOT, 'tools', 'package', 'test', 'consumer');
/** The examples installed as they are, from the tarballs their package.json names. */
export const EXAMPLES = ['hello-plugin', 'tally-plugin'] as const;
const INSTALL = ['install', '--prefer-offline', '--no-audit', '--no-fund'];
/** The folder of the consumer that holds a plugin the generator made with `--standalone`. */
export const STANDALONE = 'standalone-plugin';

/**
 * Every published package packed once, into `<scratch>/dist/packages` as `npm run pack:*` does in a checkout, and
 * what an outside developer does with them: a consumer folder with the libraries installed (itself a plugin and a
 * tool), copies of the examples installed by their own package.json, the `pi` CLI installed with `npm install -g`
 * into a prefix of its own (with the `pi-session`, `pi-tui` and `pi-coordinator` it carries), and that `pi-session`,
 * running, loaded with those plugins and answering with a local model.
 */
export interface PackedWorkspace extends AsyncDisposable {
  readonly built: ReadonlyMap<string, BuiltPackage>;
  readonly consumer: ConsumerFolder;
  /** Undefined when the consumer folder installed and compiled (its own sources and the standalone plugin's). */
  readonly compileError: Error | undefined;
  /** The installed copy of each example. */
  readonly examples: Readonly<Record<(typeof EXAMPLES)[number], string>>;
  /** Where `npm install -g` linked the package's commands: `pi`, `pi-session`, `pi-tui`, `pi-coordinator`. */
  readonly bin: string;
  /** The `pi` command that `npm install -g` linked. */
  readonly pi: string;
  /** The `pi-session` the installed `pi` carries: `host` runs it, and `pi -p` starts it where no session runs. */
  readonly piSession: string;
  readonly host: SessionHost;
  readonly model: FakeChatServer;
}

export async function packWorkspace(): Promise<PackedWorkspace> {
  const scratch = await mkdtemp(join(tmpdir(), 'pi-packs-'));
  const cleanups: Array<() => PromiseLike<unknown>> = [() => rm(scratch, { recursive: true, force: true })];
  const dispose = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  };
  try {
    const packages = join(scratch, 'dist', 'packages');
    const built = new Map<string, BuiltPackage>();
    const tarballs = new Map<string, string>();
    // Under `npm test` the batch's type check writes the declarations the packer bundles: after it, the packer's
    // `tsc --build` finds them up to date (0.2 s of CPU instead of 7 s), and never writes beside it.
    await batchTypecheckFinished();
    for (const name of Object.keys(PUBLISHED_PACKAGES)) {
      built.set(name, await buildPackage(name, { outDir: join(scratch, 'build', name) }));
    }
    // One npm packs them all (four cost 2.0 s of CPU, one 1.2 s).
    const packed = await packPackages([...built.values()], packages);
    [...built.keys()].forEach((name, index) => tarballs.set(name, packed[index] ?? name));

    const examples = Object.fromEntries(EXAMPLES.map((name) => [name, join(scratch, 'examples', name)])) as Record<
      (typeof EXAMPLES)[number],
      string
    >;
    const skipped = /[\\/](node_modules|dist)$/;
    for (const name of EXAMPLES) {
      await cp(join(WORKSPACE_ROOT, 'examples', name), examples[name], {
        recursive: true,
        filter: (source) => !skipped.test(source),
      });
    }

    // The consumer is itself a plugin package (its `pi` field names the compiled facet) and a tool.
    const consumer = await createConsumerFolder();
    cleanups.push(() => consumer[Symbol.asyncDispose]());
    await cp(CONSUMER_FIXTURE, consumer.dir, { recursive: true });
    const pi = { id: 'greeter', apiVersion: PLUGIN_API_VERSION, facets: { session: './dist/greeter-plugin.js' } };
    await consumer.writeFile('package.json', JSON.stringify({ name: 'greeter', private: true, type: 'module', pi }));
    // A plugin as the generator writes it outside the workspace, compiled against the packages installed here.
    await generateStandalonePlugin('standalone', join(consumer.dir, STANDALONE));
    const tools = (await readManifest(WORKSPACE_ROOT)).devDependencies ?? {};
    const zod = (await readManifest(join(WORKSPACE_ROOT, 'libs', 'plugin-api'))).dependencies?.['zod'];
    // What a stock tRPC client needs beside the packed types, at the versions the transport is built with.
    const transport = await readManifest(join(WORKSPACE_ROOT, 'libs', 'transport-trpc'));
    const stockClient = ['@trpc/client', 'superjson', 'ws', '@types/ws'].map(
      (name) => `${name}@${transport.dependencies?.[name] ?? transport.devDependencies?.[name]}`,
    );
    const libraries = ['@pi/client', '@pi/plugin-api', '@pi/session-api'].map((name) => tarballs.get(name) ?? name);
    const global = join(scratch, 'global');
    // npm mostly waits on the disk, and each folder is its own: the installs (and the consumer's compile) overlap.
    const [compileError] = await Promise.all([
      consumer
        .install([
          ...libraries,
          `zod@${zod}`,
          `typescript@${tools['typescript']}`,
          `@types/node@${tools['@types/node']}`,
          ...stockClient,
        ])
        .then(() => Promise.all([consumer.compile(), consumer.compileProject(STANDALONE)]))
        .then(
          () => undefined,
          (error: unknown) => error as Error,
        ),
      ...EXAMPLES.map((name) => runNpm(INSTALL, examples[name])),
      runNpm([...INSTALL, '--global', '--prefix', global, tarballs.get('@pi/cli') ?? '@pi/cli'], scratch),
    ]);

    const model = await startModelServer();
    cleanups.push(() => model.close());
    const manifest = join(scratch, 'manifest.json');
    const compiled = compileError === undefined ? [consumer.dir, join(consumer.dir, STANDALONE)] : [];
    const plugins = [...DEFAULT_MANIFEST.plugins, ...compiled];
    await writeFile(manifest, JSON.stringify({ plugins: [...plugins, ...Object.values(examples)] }));
    const piSession = join(global, 'bin', 'pi-session');
    const host = await startSessionHost(join(scratch, 'host'), manifest, model.baseUrl, piSession);
    cleanups.push(() => host[Symbol.asyncDispose]());
    return {
      built,
      consumer,
      compileError,
      examples,
      bin: join(global, 'bin'),
      pi: join(global, 'bin', 'pi'),
      piSession,
      host,
      model,
      [Symbol.asyncDispose]: dispose,
    };
  } catch (error) {
    await dispose();
    throw error;
  }
}
