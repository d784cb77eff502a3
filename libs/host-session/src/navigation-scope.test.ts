import { readdir } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { BACKGROUND_CONTEXT } from '@pi/context';
import type { CodingAgentSessionPluginContext } from '@pi/plugin-api';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestSessionHost, type TestSessionHost } from './testing';

let fixture: TestSessionHost | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

async function facetContext(): Promise<CodingAgentSessionPluginContext> {
  let captured: CodingAgentSessionPluginContext | undefined;
  fixture = await startTestSessionHost({
    facets: [{ id: '@t/navigator', facet: (context) => void (captured = context) }],
  });
  if (captured === undefined) throw new Error('the facet did not run');
  return captured;
}

describe("a facet's navigation view", () => {
  it('moves the leaf of the real harness, durably, and reads it back through the tree', async () => {
    const { agent } = await facetContext();
    const record = await agent.appendCustom({ step: 1 }, BACKGROUND_CONTEXT);
    await agent.appendCustom({ step: 2 }, BACKGROUND_CONTEXT);
    expect((await agent.navigation.moveLeaf(record.id, BACKGROUND_CONTEXT))._unsafeUnwrap().moved).toBe(true);
    expect(agent.navigation.leafId).toBe(record.id);
    expect(agent.sessionTree.branch().at(-1)).toEqual(
      expect.objectContaining({ kind: 'leaf_moved', parentId: record.id }),
    );
    expect(agent.navigation.list(0, 10).nodes.map((node) => node.onCurrentBranch)).toEqual([true, false]);
  });

  it('forks beside the session file only: a file a facet slips in is ignored', async () => {
    const { agent } = await facetContext();
    const record = await agent.appendCustom({ step: 1 }, BACKGROUND_CONTEXT);
    const elsewhere = join(fixture?.directory ?? '', 'elsewhere.jsonl');
    const fork = agent.navigation.fork as (...args: unknown[]) => ReturnType<typeof agent.navigation.fork>;
    const forked = (await fork(record.id, BACKGROUND_CONTEXT, { file: elsewhere }))._unsafeUnwrap();
    expect(dirname(forked.file)).toBe(dirname(fixture?.sessionFile ?? ''));
    expect(await readdir(dirname(forked.file))).toContain(basename(forked.file));
    expect(await readdir(fixture?.directory ?? '')).not.toContain('elsewhere.jsonl');
  });
});
