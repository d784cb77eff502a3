import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AgentMessage, AnyAgentTool, SessionEntry } from '@pi/agent-contract';
import { decideParked, findParkedRun } from './parked-run';
import { createScriptedProvider } from './testing';

let next = 0;
const at = { timestamp: '2026-01-01T00:00:00.000Z', parentId: null };
const started = (operationId: string): SessionEntry => ({
  id: `e${next++}`,
  ...at,
  kind: 'operation_started',
  operationId,
});
const said = (message: AgentMessage, operationId = 'op'): SessionEntry => ({
  id: `e${next++}`,
  ...at,
  kind: 'message',
  message,
  operationId,
});
const asks = said({
  role: 'assistant',
  content: [
    { type: 'tool_call', id: 'c1', name: 'ask', arguments: {} },
    { type: 'tool_call', id: 'c2', name: 'ask', arguments: {} },
  ],
  model: 'scripted/model-a',
  stopReason: 'tool_calls',
});
const answered = (toolCallId: string) =>
  said({ role: 'tool', toolCallId, toolName: 'ask', content: [], details: null, isError: false });
const prompt = said({ role: 'user', content: [{ type: 'text', text: 'ask me' }] });

const ask: AnyAgentTool = {
  name: 'ask',
  label: 'Ask',
  description: 'asks',
  executionMode: 'sequential',
  parameters: z.object({}),
  replay: 'safe',
  execute: async () => ({ content: [], details: null }),
};
const provider = createScriptedProvider({ turns: [] });
const options = (model: boolean) => ({
  tools: () => new Map([['ask', ask]]),
  providers: () => new Map([[provider.id, provider]]),
  settings: () => ({
    model: model ? { provider: provider.id, modelId: 'model-a' } : null,
    thinkingLevel: 'off' as const,
  }),
});

describe('findParkedRun', () => {
  it('finds the latest unsettled run stopped in a tool round, with the calls it still owes', () => {
    const parked = findParkedRun([started('op'), prompt, asks, answered('c1')]);
    expect(parked).toMatchObject({ operationId: 'op', turns: 1, pending: [{ id: 'c2' }] });
    expect(parked?.calls).toHaveLength(2);
  });

  it('finds none when the run was cancelled, answered without tools, or a steer followed its results', () => {
    const cancel: SessionEntry = { id: 'x', ...at, kind: 'cancel_requested', operationId: 'op' };
    expect(findParkedRun([started('op'), prompt, asks, cancel])).toBeNull();
    expect(
      findParkedRun([
        started('op'),
        prompt,
        said({ role: 'assistant', content: [], model: 'scripted/model-a', stopReason: 'stop' }),
      ]),
    ).toBeNull();
    expect(findParkedRun([started('op'), prompt, asks, answered('c1'), answered('c2'), prompt])).toBeNull();
    expect(findParkedRun([started('op'), prompt])).toBeNull();
  });
});

describe('decideParked', () => {
  const parked = findParkedRun([started('op'), prompt, asks]);
  if (parked === null) throw new Error('no parked run');

  it('resumes with the owed calls and the turns used when its tools may run again and a model is selected', () => {
    const decision = decideParked(parked, false, options(true));
    expect(decision).toMatchObject({
      kind: 'resume',
      from: { turns: 1 },
      plan: { operationId: 'op', originator: null },
    });
  });

  it('settles it as interrupted without a model, and as aborted when its cancel was recorded', () => {
    expect(decideParked(parked, false, options(false))).toMatchObject({
      kind: 'settle',
      outcome: { outcome: 'failed', error: 'interrupted' },
    });
    expect(decideParked(parked, true, options(true))).toMatchObject({
      kind: 'settle',
      outcome: { outcome: 'aborted', error: 'interrupted' },
    });
  });
});
