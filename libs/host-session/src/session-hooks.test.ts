import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BACKGROUND_CONTEXT } from '@pi/context';
import type { AfterToolHook, AnyAgentTool, SessionStartInfo } from '@pi/agent';
import { createScriptedProvider } from '@pi/agent/testing';
import type { AgentPluginScope, SessionFacet } from '@pi/plugin-api';
import { modelProviderFacet, startTestSessionHost, type TestFacet, type TestSessionHost } from './testing';

const fixtures: TestSessionHost[] = [];
afterEach(async () => {
  for (const fixture of fixtures.splice(0).reverse()) await fixture.close();
});

/** Deadlines a hook that hangs runs into quickly; the hooks that do finish get the defaults, ample on a loaded machine. */
const SHORT_DEADLINES = { runHookMs: 50, sessionStartMs: 50, sessionShutdownMs: 50 };

async function start(
  facets: readonly TestFacet[],
  options: { directory?: string; hookDeadlines?: typeof SHORT_DEADLINES } = {},
): Promise<TestSessionHost> {
  const fixture = await startTestSessionHost({ facets, ...options });
  fixtures.push(fixture);
  return fixture;
}

/** A facet that records its setup, activation and disposal in `log`, then runs `extra`. */
function recording(id: string, log: string[], extra: SessionFacet = () => undefined): TestFacet {
  return {
    id,
    facet: async (context) => {
      log.push(`setup ${id}`);
      context.onActivate(() => void log.push(`activate ${id}`));
      context.onDispose(() => void log.push(`dispose ${id}`));
      await extra(context);
    },
  };
}

const hang = () => new Promise<void>(() => undefined);

describe('session start and shutdown hooks', () => {
  it('tell every plugin once the host started — after activation, in manifest order — and whether it was created', async () => {
    const log: string[] = [];
    const seen: SessionStartInfo[] = [];
    const facet = (id: string) =>
      recording(id, log, (context) => {
        context.hook('sessionStart', (info) => {
          log.push(`start ${id}`);
          seen.push(info);
        });
      });
    const first = await start([facet('@t/a'), facet('@t/b')]);
    // Both were told before the host was handed over, so before any client could connect.
    expect(log).toEqual(['setup @t/a', 'setup @t/b', 'activate @t/a', 'activate @t/b', 'start @t/a', 'start @t/b']);
    expect(seen[0]).toEqual({ sessionId: 'test', created: true, recovery: [] });

    // Restarted on the same files: restored. The first fixture owns the directory, so it is closed last.
    await first.host.stop();
    seen.length = 0;
    const second = await start([facet('@t/a')], { directory: first.directory });
    expect(seen).toEqual([{ sessionId: 'test', created: false, recovery: [] }]);
    fixtures.splice(0, fixtures.length, first, second);
  });

  it('tell every plugin once the host stops — reverse manifest order, before any facet is disposed, session still open', async () => {
    const log: string[] = [];
    const facet = (id: string) =>
      recording(id, log, (context) => {
        context.hook('sessionShutdown', async (info) => {
          const entry = await context.agent.appendCustom({ stopping: info.sessionId }, BACKGROUND_CONTEXT);
          log.push(`shutdown ${id} (${entry.kind})`);
        });
      });
    const fixture = await start([facet('@t/a'), facet('@t/b')]);
    log.length = 0;

    await Promise.all([fixture.host.stop(), fixture.host.stop()]);
    await fixture.host.stop();

    expect(log).toEqual(['shutdown @t/b (custom)', 'shutdown @t/a (custom)', 'dispose @t/b', 'dispose @t/a']);
  });

  it('isolate a start or shutdown hook that throws, rejects or hangs, recorded against its plugin', async () => {
    const log: string[] = [];
    const fixture = await start(
      [
        {
          id: '@t/throws',
          facet: (context) => {
            context.hook('sessionStart', () => {
              throw new Error('boom');
            });
            context.hook('sessionShutdown', () => Promise.reject(new Error('gone')));
          },
        },
        {
          id: '@t/hangs',
          facet: (context) => {
            context.hook('sessionStart', hang);
            context.hook('sessionShutdown', hang);
          },
        },
        recording('@t/fine', log, (context) => {
          context.hook('sessionStart', () => void log.push('start @t/fine'));
          context.hook('sessionShutdown', () => void log.push('shutdown @t/fine'));
        }),
      ],
      { hookDeadlines: SHORT_DEADLINES },
    );
    expect(log).toContain('start @t/fine');
    expect(fixture.host.diagnostics().callbacks).toEqual([
      { owner: '@t/throws', message: 'session_start hook threw: boom' },
      { owner: '@t/hangs', message: 'session_start hook did not finish within 50 ms' },
    ]);

    // A hanging shutdown hook does not hold the stop: it returns within the test's timeout.
    await fixture.host.stop();
    expect(log).toEqual(expect.arrayContaining(['shutdown @t/fine', 'dispose @t/fine']));
    expect(fixture.host.diagnostics().callbacks.slice(2)).toEqual(
      expect.arrayContaining([
        { owner: '@t/throws', message: 'session_shutdown hook rejected: gone' },
        { owner: '@t/hangs', message: 'session_shutdown hook did not finish within 50 ms' },
      ]),
    );
  });
});

describe('run-path hooks through the session host', () => {
  const echo: AnyAgentTool = {
    name: 'echo',
    label: 'Echo',
    description: 'echoes',
    executionMode: 'sequential',
    parameters: z.object({}),
    execute: async () => ({ content: [{ type: 'text', text: 'raw' }], details: null }),
  };

  it('compose in manifest order even when registered at activation, and a failing one is recorded by plugin', async () => {
    const provider = createScriptedProvider({
      turns: [
        [
          { type: 'tool_call', id: 'c1', name: 'echo', arguments: {} },
          { type: 'done', stopReason: 'tool_calls' },
        ],
        [{ type: 'done', stopReason: 'stop' }],
      ],
    });
    let agent: AgentPluginScope | undefined;
    const appending =
      (text: string): AfterToolHook =>
      (_call, result) => ({
        content: [{ type: 'text', text: `${result.content.map((part) => part.text).join('')} ${text}` }],
      });
    const fixture = await start([
      { id: '@t/model', facet: modelProviderFacet(provider) },
      {
        id: '@t/tools',
        facet: (context) => {
          context.tools.add((draft) => draft.set('echo', echo));
          agent = context.agent;
        },
      },
      // Earlier in the manifest but registering later (at activation): it still runs first.
      {
        id: '@t/late',
        facet: (context) => context.onActivate(() => void context.hook('afterTool', appending('+late'))),
      },
      { id: '@t/early', facet: (context) => void context.hook('afterTool', appending('+early')) },
      {
        id: '@t/broken',
        facet: (context) =>
          void context.hook('beforeModelRequest', () => {
            throw new Error('no index');
          }),
      },
    ]);
    if (agent === undefined) throw new Error('the tools facet did not run');
    const { operationId } = (
      await agent.main.prompt([{ role: 'user', content: [{ type: 'text', text: 'go' }] }], BACKGROUND_CONTEXT)
    )._unsafeUnwrap();
    expect((await agent.main.settled(operationId)).outcome).toBe('completed');

    const result = agent.sessionTree.messages().find((message) => message.role === 'tool');
    expect(result?.content).toEqual([{ type: 'text', text: 'raw +late +early' }]);
    expect(fixture.host.diagnostics().callbacks).toEqual([
      { owner: '@t/broken', message: 'before_model_request hook threw: no index' },
      { owner: '@t/broken', message: 'before_model_request hook threw: no index' },
    ]);
  });
});
