import { afterEach, describe, expect, it } from 'vitest';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { installInMemoryTelemetry, type InMemoryTelemetry } from '@pi/context/testing';
import { modelProviderFacet, type TestFacet } from '@pi/host-session/testing';
import type { AgentLanePluginView, ModelProvider } from '@pi/plugin-api';
import { SessionDirectory, type SessionPickerService } from '@pi/session-directory';
import { PROVISIONAL_TITLE } from '@pi/session-directory-coordinator';
import { TRANSPORTS, eventually, remoteErrorOf } from '@pi/test-support';
import { BLUE_ONE, RED, SELF, startChain, type Chain, type ChainOptions, type Presentation } from './chain';

const SUGGESTED = 'rpc.server session-directory.suggestTitle';

describe.each(TRANSPORTS)('session titles over %s', (kind) => {
  let running: Chain | undefined;
  let telemetry: InMemoryTelemetry | undefined;
  afterEach(async () => {
    await running?.close();
    telemetry?.uninstall();
    [running, telemetry] = [undefined, undefined];
  });

  /** The session host with the offline model and a driver of its lane (captured again after each restart). */
  let lane: AgentLanePluginView | undefined;
  const sessionFacets: TestFacet[] = [
    { id: '@test/model', facet: modelProviderFacet(answeringProvider) },
    { id: '@test/driver', facet: (context) => void (lane = context.agent.main) },
  ];
  const start = async (options: Partial<ChainOptions> = {}) => {
    telemetry = installInMemoryTelemetry();
    running = await startChain(kind, { presentations: 1, sessionFacets, ...options });
    const [presentation] = running.presentations as [Presentation];
    await eventually(() => titleIn(presentation.picker) !== undefined);
    return { chain: running, picker: presentation.picker };
  };
  /** Sends a prompt as the user would and waits until the model answered it. */
  const prompt = async (text: string) => {
    const accepted = await lane?.prompt([{ role: 'user', content: [{ type: 'text', text }] }], BACKGROUND_CONTEXT);
    if (accepted === undefined || accepted.isErr()) throw new Error(`prompt refused: ${JSON.stringify(accepted)}`);
    await lane?.settled(accepted.value.operationId);
  };
  /** Resolves once the coordinator has answered `count` title suggestions in all. */
  const suggestions = (count: number) =>
    eventually(() => (telemetry?.spans().filter((span) => span.name === SUGGESTED).length ?? 0) >= count);

  it('renames the current session: the record, every presentation and the coordinator’s clients see it', async () => {
    const { chain, picker } = await start({ presentations: 2 });
    const other = chain.presentations[1] as Presentation;
    const user = await chain.connectCoordinator(chain.userToken).client.use(SessionDirectory);
    const renamed = await picker.rename(SELF, '  the parser rewrite ', BACKGROUND_CONTEXT);
    expect(renamed).toMatchObject({ sessionId: SELF, title: 'the parser rewrite', isCurrent: true });
    await eventually(() => titleIn(other.picker) === 'the parser rewrite');
    await eventually(() => user.state.value.sessions.some((s) => s.title === 'the parser rewrite'));
    expect(await chain.repo.get(SELF)).toMatchObject({ title: 'the parser rewrite', provisionalTitle: false });
  });

  it('refuses a bad title with invalid_argument, and a session outside the list, renaming nothing', async () => {
    const { chain, picker } = await start();
    for (const title of ['', '   ', 'line\nbreak', 'a\u001b[2Jb', 'x'.repeat(201)]) {
      const refused = await remoteErrorOf(picker.rename(SELF, title, BACKGROUND_CONTEXT));
      expect(refused.code, JSON.stringify(title)).toBe('invalid_argument');
    }
    expect((await remoteErrorOf(picker.rename(BLUE_ONE, 'mine now', BACKGROUND_CONTEXT))).code).toBe('unknown_session');
    // Straight to the coordinator with the session's own credential: another workspace is not its to name.
    const token = chain.credentials.issue({ sessionId: SELF, workspaceId: RED });
    const asSession = await chain.connectCoordinator(token).client.use(SessionDirectory);
    expect((await remoteErrorOf(asSession.rename(BLUE_ONE, 'mine now', BACKGROUND_CONTEXT))).code).toBe(
      'not_authorized',
    );
    expect((await chain.repo.get(SELF))?.title).toBe('this session');
    expect((await chain.repo.get(BLUE_ONE))?.title).toBe('blue secret');
  });

  it('names an unnamed session after its first prompt; later prompts, and a restart, keep that title', async () => {
    const { chain, picker } = await start({ unnamed: true });
    expect(titleIn(picker)).toBe(PROVISIONAL_TITLE);
    await prompt('  read   the README\nand summarize it  ');
    await eventually(() => titleIn(picker) === 'read the README and summarize it');
    expect(await chain.repo.get(SELF)).toMatchObject({ provisionalTitle: false });
    await prompt('list the files');
    await suggestions(1);

    await chain.restartSession();
    const again = await chain.present();
    await eventually(() => titleIn(again.picker) === 'read the README and summarize it');
    // The restarted session suggests its first prompt again; the coordinator keeps the title it has.
    await prompt('find the tests');
    await suggestions(2);
    expect((await chain.repo.get(SELF))?.title).toBe('read the README and summarize it');
    expect(titleIn(again.picker)).toBe('read the README and summarize it');
  });

  it('keeps a title the user chose before the first prompt', async () => {
    const { chain, picker } = await start({ unnamed: true });
    await picker.rename(SELF, 'chosen by me', BACKGROUND_CONTEXT);
    await prompt('read the README');
    await suggestions(1);
    expect((await chain.repo.get(SELF))?.title).toBe('chosen by me');
    expect(titleIn(picker)).toBe('chosen by me');
  });

  it('a session created without a title is unnamed until its first prompt; one created with a title is named', async () => {
    const { chain, picker } = await start();
    const unnamed = await picker.create({}, BACKGROUND_CONTEXT);
    const named = await picker.create({ title: 'fix the build' }, BACKGROUND_CONTEXT);
    expect(unnamed.title).toBe(PROVISIONAL_TITLE);
    expect(await chain.repo.get(unnamed.sessionId)).toMatchObject({ provisionalTitle: true });
    expect(await chain.repo.get(named.sessionId)).toMatchObject({ title: 'fix the build', provisionalTitle: false });
  });
});

/** A model that answers every prompt with one word. */
const answeringProvider: ModelProvider = {
  id: 'answering',
  name: 'Answering',
  models: () => [{ provider: 'answering', modelId: 'one', name: 'one', reasoning: false }],
  async *stream() {
    yield { type: 'text_delta', delta: 'done' };
    yield { type: 'done', stopReason: 'stop' };
  },
};

/** The title the picker lists for the chain's own session. */
function titleIn(picker: SessionPickerService): string | undefined {
  return picker.state.value.sessions.find((session) => session.isCurrent)?.title;
}
