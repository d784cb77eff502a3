import { afterEach, describe, expect, it } from 'vitest';
import { windowedProvider } from '@pi/agent/testing';
import { BACKGROUND_CONTEXT, Diagnostics, type CodingAgentSessionPluginContext } from '@pi/plugin-api';
import { TRANSPORTS, eventually } from '@pi/test-support';
import { modelProviderFacet, startTestSessionHost, type TestSessionHost } from '../testing';

const fixtures: TestSessionHost[] = [];
afterEach(async () => {
  await Promise.all(fixtures.splice(0).map((fixture) => fixture.close()));
});

const userText = (text: string) => ({ role: 'user' as const, content: [{ type: 'text' as const, text }] });

/** A session with a model that records its requests and a plugin whose context the test holds. */
async function start(transport: (typeof TRANSPORTS)[number]) {
  const provider = windowedProvider();
  let captured: CodingAgentSessionPluginContext | undefined;
  const fixture = await startTestSessionHost({
    transport,
    facets: [
      { id: '@t/model', facet: modelProviderFacet(provider) },
      { id: '@t/chatroom', facet: (context) => void (captured = context) },
    ],
  });
  fixtures.push(fixture);
  const context = captured as CodingAgentSessionPluginContext;
  const say = async (text: string) => {
    const accepted = await context.agent.main.prompt([userText(text)], BACKGROUND_CONTEXT);
    await context.agent.main.settled(accepted._unsafeUnwrap().operationId);
  };
  const sent = () => provider.requests.at(-1)?.messages.map((message) => JSON.stringify(message.content)) ?? [];
  return { fixture, context, say, sent };
}

describe.each(TRANSPORTS)('entry projectors over %s', (transport) => {
  it('keeps a custom entry in the tree but away from the model while no projector shows it', async () => {
    const { context, say, sent } = await start(transport);
    const entry = await context.agent.appendCustom({ said: 'hidden note' }, BACKGROUND_CONTEXT);
    context.projectEntries(() => undefined);
    await say('hello');
    expect(context.agent.sessionTree.branch().map((each) => each.id)).toContain(entry.id);
    expect(sent().join()).not.toContain('hidden note');
  });

  it("puts a projector's messages in the entry's place on the branch, from the next request on", async () => {
    const { context, say, sent } = await start(transport);
    await say('before');
    await context.agent.appendCustom({ said: 'the room says hi' }, BACKGROUND_CONTEXT);
    const remove = context.projectEntries((data) => [userText(`chat: ${(data as { said: string }).said}`)]);
    await say('after');
    expect(sent()).toEqual([
      JSON.stringify([{ type: 'text', text: 'before' }]),
      expect.any(String),
      JSON.stringify([{ type: 'text', text: 'chat: the room says hi' }]),
      JSON.stringify([{ type: 'text', text: 'after' }]),
    ]);
    remove();
    await say('again');
    expect(sent().join()).not.toContain('the room says hi');
  });

  it('leaves an entry invisible and reports the plugin when its projector throws or answers no user messages', async () => {
    const { fixture, context, say, sent } = await start(transport);
    await context.agent.appendCustom({ n: 1 }, BACKGROUND_CONTEXT);
    context.projectEntries(() => {
      throw new Error('projector broke');
    });
    await say('one');
    context.projectEntries(() => [{ role: 'assistant', content: [] }] as never);
    await say('two');
    expect(sent()).toHaveLength(3);
    const diagnostics = await (await fixture.connect()).use(Diagnostics);
    await eventually(() => diagnostics.state.value.entries.length >= 2);
    expect(diagnostics.state.value.entries.map(({ source, message }) => ({ source, message }))).toEqual(
      expect.arrayContaining([
        { source: '@t/chatroom', message: 'entry projector threw: projector broke' },
        { source: '@t/chatroom', message: 'entry projector answered something other than user messages; ignored' },
      ]),
    );
  });
});
