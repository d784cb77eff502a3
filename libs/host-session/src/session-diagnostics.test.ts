import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createScriptedProvider } from '@pi/agent/testing';
import type { AnyAgentTool } from '@pi/agent';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { Diagnostics, type DiagnosticEntry, type DiagnosticsService, type SessionFacet } from '@pi/plugin-api';
import { TRANSPORTS, eventually } from '@pi/test-support';
import { modelProviderFacet, startTestSessionHost, type TestSessionHost } from './testing';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function start(
  transport: (typeof TRANSPORTS)[number],
  facets: Array<{ id: string; facet: SessionFacet }>,
  directory?: string,
): Promise<TestSessionHost> {
  const fixture = await startTestSessionHost({ transport, facets, ...(directory === undefined ? {} : { directory }) });
  cleanups.push(() => fixture.close());
  return fixture;
}

async function diagnosticsOf(fixture: TestSessionHost): Promise<DiagnosticsService> {
  const client = await fixture.connect();
  return (await client.acquire(Diagnostics)).service;
}

const summary = (entries: readonly DiagnosticEntry[]) =>
  entries.map(({ source, kind, severity, message }) => ({ source, kind, severity, message }));

const todo: AnyAgentTool = {
  name: 'todo',
  label: 'Todo',
  description: 'keeps a list',
  executionMode: 'sequential',
  parameters: z.object({}),
  execute: async () => ({ content: [{ type: 'text', text: 'noted' }], details: null }),
};

describe.each(TRANSPORTS)('the diagnostics a client sees over %s', (transport) => {
  it('lists a rebuild error and a plugin report, counts them, and clear marks them seen', async () => {
    const fixture = await start(transport, [
      {
        id: '@t/noisy',
        facet: (context) => {
          context.tools.add(() => {
            throw new Error('no tools today');
          });
          context.diagnostics.report('warning', 'ignored ~/.noisy.json: not JSON');
        },
      },
    ]);
    const diagnostics = await diagnosticsOf(fixture);
    expect(summary(diagnostics.state.value.entries)).toEqual([
      { source: '@t/noisy', kind: 'report', severity: 'warning', message: 'ignored ~/.noisy.json: not JSON' },
      { source: '@t/noisy', kind: 'rebuild', severity: 'error', message: 'no tools today' },
    ]);
    expect(diagnostics.state.value.unseen).toBe(2);

    await diagnostics.clear(BACKGROUND_CONTEXT);
    await eventually(() => diagnostics.state.value.unseen === 0);
    expect(diagnostics.state.value.entries).toHaveLength(2);
  });

  it('reports a rebuild error once however often the registry replays, and what a rebuild after start changed', async () => {
    let addLate = false;
    let rebuild: (() => void) | undefined;
    const fixture = await start(transport, [
      {
        id: '@t/growing',
        facet: (context) => {
          context.tools.add(() => {
            throw new Error('no tools today');
          });
          context.tools.add((draft) => void (addLate && draft.set('late', { ...todo, name: 'late' })));
          rebuild = () => context.tools.rebuild();
        },
      },
    ]);
    const diagnostics = await diagnosticsOf(fixture);
    addLate = true;
    rebuild?.();
    await eventually(() => diagnostics.state.value.entries.length === 2);
    addLate = false;
    rebuild?.();
    await eventually(() => diagnostics.state.value.entries.length === 3);
    expect(summary(diagnostics.state.value.entries)).toEqual([
      { source: '@t/growing', kind: 'rebuild', severity: 'error', message: 'no tools today' },
      { source: 'host', kind: 'rebuild', severity: 'info', message: 'tools: added late' },
      { source: 'host', kind: 'rebuild', severity: 'info', message: 'tools: removed late' },
    ]);
    expect(diagnostics.state.value.unseen).toBe(1);
  });

  it('reports a failing effect and a listener that throws against their plugins', async () => {
    let emit: (() => void) | undefined;
    const fixture = await start(transport, [
      {
        id: '@t/flaky',
        facet: (context) => {
          context.effect(async () => {
            throw new Error('watch failed');
          });
          context.onActivate(() => {
            emit = () => void context.agent.appendCustom({ note: 1 }, BACKGROUND_CONTEXT);
          });
          context.on('entry_appended', () => {
            throw new Error('listener broke');
          });
        },
      },
    ]);
    const diagnostics = await diagnosticsOf(fixture);
    emit?.();
    await eventually(() => diagnostics.state.value.entries.length === 2);
    expect(summary(diagnostics.state.value.entries)).toEqual(
      expect.arrayContaining([
        { source: '@t/flaky', kind: 'callback', severity: 'error', message: 'effect failed: watch failed' },
        {
          source: '@t/flaky',
          kind: 'callback',
          severity: 'error',
          message: 'entry_appended listener threw: listener broke',
        },
      ]),
    );
  });

  it('refuses a report with a severity that does not exist, naming the plugin', async () => {
    let refusal: unknown;
    await start(transport, [
      {
        id: '@t/odd',
        facet: (context) => {
          try {
            context.diagnostics.report('fatal' as 'error', 'x');
          } catch (error) {
            refusal = error;
          }
        },
      },
    ]);
    expect(String(refusal)).toContain('Plugin "@t/odd": no diagnostic severity "fatal"');
  });

  it('names the tools a restored history calls that no loaded plugin provides (missing_identities)', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'pi-missing-'));
    cleanups.push(() => rm(directory, { recursive: true, force: true }));
    const provider = createScriptedProvider({
      turns: [
        [
          { type: 'tool_call', id: 'c1', name: 'todo', arguments: {} },
          { type: 'done', stopReason: 'tool_calls' },
        ],
        [
          { type: 'text_delta', delta: 'done' },
          { type: 'done', stopReason: 'stop' },
        ],
      ],
    });
    let prompt: (() => Promise<void>) | undefined;
    const first = await start(
      transport,
      [
        { id: '@t/provider', facet: modelProviderFacet(provider) },
        {
          id: '@t/runner',
          facet: (context) =>
            void (prompt = async () => {
              const accepted = await context.agent.main.prompt(
                [{ role: 'user', content: [{ type: 'text', text: 'go' }] }],
                BACKGROUND_CONTEXT,
              );
              await context.agent.main.settled(accepted._unsafeUnwrap().operationId);
            }),
        },
        { id: '@t/todo', facet: (context) => void context.tools.add((draft) => draft.set('todo', todo)) },
      ],
      directory,
    );
    await prompt?.();
    await first.close();

    const restored = await start(transport, [{ id: '@t/provider', facet: modelProviderFacet(provider) }], directory);
    const diagnostics = await diagnosticsOf(restored);
    expect(summary(diagnostics.state.value.entries)).toContainEqual({
      source: 'host',
      kind: 'missing_identities',
      severity: 'warning',
      message: expect.stringContaining('the history calls tools no loaded plugin provides: todo') as unknown,
    });
  });
});
