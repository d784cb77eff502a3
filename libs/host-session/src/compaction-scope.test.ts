import { BACKGROUND_CONTEXT } from '@pi/context';
import { windowedProvider } from '@pi/agent/testing';
import type { CodingAgentSessionPluginContext } from '@pi/plugin-api';
import { afterEach, describe, expect, it } from 'vitest';
import { modelProviderFacet, startTestSessionHost, type TestSessionHost } from './testing';

let fixture: TestSessionHost | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

describe("a facet's compaction view", () => {
  it('compacts the real harness with the selected model; the next run sends the summary', async () => {
    const provider = windowedProvider();
    let captured: CodingAgentSessionPluginContext | undefined;
    fixture = await startTestSessionHost({
      facets: [
        { id: '@t/model', facet: modelProviderFacet(provider) },
        { id: '@t/compactor', facet: (context) => void (captured = context) },
      ],
    });
    if (captured === undefined) throw new Error('the facet did not run');
    const { agent } = captured;
    const say = async (text: string) => {
      const accepted = await agent.main.prompt(
        [{ role: 'user', content: [{ type: 'text', text }] }],
        BACKGROUND_CONTEXT,
      );
      await agent.main.settled(accepted._unsafeUnwrap().operationId);
    };
    await say('one');
    await say('two');
    const compacted = (await agent.compaction.compact({}, BACKGROUND_CONTEXT))._unsafeUnwrap();
    expect(agent.sessionTree.branch().at(-1)).toMatchObject({ id: compacted.entryId, kind: 'compaction' });
    await say('three');
    expect(provider.requests.at(-1)?.messages).toHaveLength(4);
    expect(provider.summaries).toHaveLength(1);
  });
});
