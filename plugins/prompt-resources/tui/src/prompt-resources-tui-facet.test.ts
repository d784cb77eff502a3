import { afterEach, describe, expect, it } from 'vitest';
import { startTestTuiHost, type TestTuiHost } from '@pi/host-tui/testing';
import { BACKGROUND_CONTEXT } from '@pi/plugin-api';
import {
  EMPTY_PROMPT_RESOURCES_STATUS,
  PromptResources,
  type PromptResourcesService,
  type PromptResourcesStatus,
  type PromptTemplateInfo,
  type SkillInfo,
} from '@pi/prompt-resources';
import { createRemoteState, type MutableRemoteState } from '@pi/remote';
import { TRANSPORTS, eventually, startRpcFixture, type TransportKind } from '@pi/test-support';
import { pluginId, promptResourcesTuiFacet } from './prompt-resources-tui-facet';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const PDF: SkillInfo = {
  name: 'pdf',
  description: 'Reads PDF files',
  path: '/p/.pi/skills/pdf/SKILL.md',
  display: '.pi/skills/pdf/SKILL.md',
  source: 'project',
  modelInvocable: true,
};

function template(name: string, fields: Partial<PromptTemplateInfo> = {}): PromptTemplateInfo {
  return {
    name,
    description: `The ${name} template`,
    argumentHint: '',
    takesArguments: false,
    path: `/p/.pi/prompts/${name}.md`,
    display: `.pi/prompts/${name}.md`,
    source: 'project',
    ...fields,
  };
}

interface Fixture {
  readonly tui: TestTuiHost;
  readonly status: MutableRemoteState<PromptResourcesStatus>;
  /** What reached the prompt handler (the chat plugin's, in a real TUI). */
  readonly sent: string[];
  shows(text: string): Promise<void>;
}

/**
 * A stand-in of the session's PromptResources (it expands a line it knows to `EXPANDED <line>`, and no line of a
 * name in `gone`), and a TUI running the facet with a prompt handler that records what it is sent.
 */
async function startFixture(
  transport: TransportKind,
  status: Partial<PromptResourcesStatus>,
  gone: readonly string[] = [],
): Promise<Fixture> {
  const state = createRemoteState<PromptResourcesStatus>({ ...EMPTY_PROMPT_RESOURCES_STATUS, loaded: true, ...status });
  const service: PromptResourcesService = {
    status: state,
    async expand({ line }) {
      const name = /^\/(\S+)/.exec(line)?.[1] ?? '';
      if (gone.includes(name)) return null;
      return { kind: name.startsWith('skill:') ? 'skill' : 'template', name, text: `EXPANDED ${line}` };
    },
  };
  const rpc = await startRpcFixture(transport, { provide: (registry) => registry.provide(PromptResources, service) });
  cleanups.push(() => rpc.close());
  const sent: string[] = [];
  const tui = await startTestTuiHost({
    facets: {
      [pluginId]: promptResourcesTuiFacet,
      '@test/prompt': (context) => void context.editor.onSubmit((text) => void sent.push(text)),
    },
    client: await rpc.connect(),
    columns: 100,
  });
  cleanups.push(() => tui.stop());
  return {
    tui,
    status: state,
    sent,
    shows: (text) => tui.waitForScreen((screen) => screen.includes(text)).then(() => undefined),
  };
}

describe.each(TRANSPORTS)('the prompt resources TUI facet over %s', (transport) => {
  it('lists the skills and templates in the / menu with their descriptions', async () => {
    const { tui, shows } = await startFixture(transport, {
      skills: [PDF],
      templates: [template('review', { description: 'Review the staged changes' })],
    });
    await tui.type('/skill');
    await shows('/skill:pdf [request]');
    expect(tui.screen()).toContain('Skill: Reads PDF files');
    await tui.type('\x7f\x7f\x7f\x7f\x7fre');
    await shows('/review');
    expect(tui.screen()).toContain('Review the staged changes');
  });

  it('sends /skill:name with what follows it as the expanded skill', async () => {
    const { tui, sent, shows } = await startFixture(transport, { skills: [PDF] });
    await tui.type('/skill:p');
    await shows('Skill: Reads PDF files');
    await tui.type('df summarize "the report"\r');
    await eventually(() => sent.length === 1);
    expect(sent).toEqual(['EXPANDED /skill:pdf summarize "the report"']);
  });

  it('sends /template args as the expanded template, and Enter in the menu waits for its arguments', async () => {
    const { tui, sent, shows } = await startFixture(transport, {
      templates: [template('component', { takesArguments: true, argumentHint: '<name>' })],
    });
    await tui.type('/comp');
    await shows('/component <name>');
    await tui.type('\r');
    expect(sent).toEqual([]);
    await tui.type('Button\r');
    await eventually(() => sent.length === 1);
    expect(sent).toEqual(['EXPANDED /component Button']);
  });

  it('follows the session: a template added appears in the menu, one removed is gone', async () => {
    const { tui, status, shows } = await startFixture(transport, { templates: [template('review')] });
    await tui.type('/rev');
    await shows('The review template');
    status.set({ ...status.value, templates: [template('deploy')] }, BACKGROUND_CONTEXT);
    await tui.type('\x7f\x7f\x7fde');
    await shows('The deploy template');
    await tui.type('\x7f\x7frev');
    await tui.waitForScreen((screen) => !screen.includes('The review template'));
  });

  it('keeps a command of the same name and says the template is not one', async () => {
    const { shows } = await startFixture(transport, { templates: [template('help')] });
    await shows('.pi/prompts/help.md is not a command: /help is already one');
  });

  it('says so when the session no longer has what the command names, and sends nothing', async () => {
    const { tui, sent, shows } = await startFixture(transport, { templates: [template('ghost')] }, ['ghost']);
    await tui.type('/gho');
    await shows('The ghost template');
    await tui.type('st\r');
    await shows('/ghost is gone from the session');
    expect(sent).toEqual([]);
  });

  it('names the skills and templates in the welcome of a new session', async () => {
    const { shows } = await startFixture(transport, { skills: [PDF], templates: [template('review')] });
    await shows('Skills: pdf (/skill:name loads one) · Prompt templates: /review');
  });
});
