import { afterEach, describe, expect, it } from 'vitest';
import { startTestTuiHost, type TestTuiHost } from '@pi/host-tui/testing';
import { BACKGROUND_CONTEXT } from '@pi/plugin-api';
import { createRemoteState } from '@pi/remote';
import { EMPTY_SYSTEM_PROMPT_STATUS, SystemPrompt, type SystemPromptStatus } from '@pi/system-prompt';
import { eventually, startRpcFixture } from '@pi/test-support';
import { systemPromptTuiFacet } from './system-prompt-tui-facet';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const agents = (display: string, chars = 10) => ({ path: `/p/${display}`, display, chars });
const LOADED: SystemPromptStatus = {
  ...EMPTY_SYSTEM_PROMPT_STATUS,
  loaded: true,
  contextFiles: [agents('~/.config/pi/AGENTS.md'), agents('AGENTS.md', 31)],
};

interface Fixture {
  readonly tui: TestTuiHost;
  readonly status: ReturnType<typeof createRemoteState<SystemPromptStatus>>;
  readonly reloads: number;
  shows(text: string): Promise<void>;
}

async function startFixture(initial: SystemPromptStatus): Promise<Fixture> {
  const status = createRemoteState<SystemPromptStatus>(initial);
  let reloads = 0;
  const rpc = await startRpcFixture('loopback', {
    provide: (registry) =>
      registry.provide(SystemPrompt, {
        status,
        text: async () => 'the prompt',
        reload: async () => void (reloads += 1),
      }),
  });
  cleanups.push(() => rpc.close());
  const tui = await startTestTuiHost({
    facets: { '@pi/system-prompt': systemPromptTuiFacet },
    client: await rpc.connect(),
  });
  cleanups.push(() => tui.stop());
  const shows = (text: string) =>
    eventually(() => {
      tui.host.flush();
      return tui.screen().includes(text);
    });
  return {
    tui,
    status,
    get reloads() {
      return reloads;
    },
    shows,
  };
}

describe('the system prompt TUI facet', () => {
  it('names the context files the model reads in the header, in the order they are sent', async () => {
    const { shows } = await startFixture(LOADED);
    await shows('Context: ~/.config/pi/AGENTS.md, AGENTS.md');
  });

  it('says when the context files are off, names a custom prompt, and shows each warning', async () => {
    const { status, shows } = await startFixture(LOADED);
    await shows('Context: ');
    status.set(
      {
        ...LOADED,
        contextFilesEnabled: false,
        contextFiles: [],
        customPrompt: agents('.pi/SYSTEM.md'),
        warnings: ['AGENTS.md is not used: it is not UTF-8 text'],
      },
      BACKGROUND_CONTEXT,
    );
    await shows('Context files off · System prompt: .pi/SYSTEM.md');
    await shows('AGENTS.md is not used: it is not UTF-8 text');
  });

  it('shows nothing before the session read the files, or when there are none', async () => {
    const { tui, status, shows } = await startFixture(EMPTY_SYSTEM_PROMPT_STATUS);
    tui.host.flush();
    expect(tui.screen()).not.toContain('Context');
    status.set({ ...LOADED, contextFiles: [] }, BACKGROUND_CONTEXT);
    await shows('');
    expect(tui.screen()).not.toContain('Context');
  });

  it('welcomes a new session with the files the model follows, or where to put some when there are none', async () => {
    const { status, shows, tui } = await startFixture(EMPTY_SYSTEM_PROMPT_STATUS);
    tui.host.flush();
    expect(tui.screen()).not.toContain('AGENTS.md');
    status.set({ ...LOADED, contextFiles: [] }, BACKGROUND_CONTEXT);
    await shows('No AGENTS.md here: project instructions for the model go in AGENTS.md');
    status.set(LOADED, BACKGROUND_CONTEXT);
    await shows('The model follows ~/.config/pi/AGENTS.md, AGENTS.md (/context lists what it');
  });

  it('/context reads the files again and lists them with their sizes', async () => {
    const fixture = await startFixture(LOADED);
    await fixture.shows('Context: ');
    await fixture.tui.type('/context\r');
    await fixture.shows('Read: ~/.config/pi/AGENTS.md (10 chars), AGENTS.md (31 chars)');
    expect(fixture.reloads).toBe(1);
  });
});
