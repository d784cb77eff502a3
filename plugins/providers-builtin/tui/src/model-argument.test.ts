import { describe, expect, it } from 'vitest';
import type { ModelSpec } from '@pi/providers-builtin';
import { parseModelArgument } from './model-argument';

const catalog: ModelSpec[] = [
  { provider: 'offline', modelId: 'echo', name: 'Offline echo', reasoning: false },
  { provider: 'a', modelId: 'shared', name: 'A', reasoning: false },
  { provider: 'b', modelId: 'shared', name: 'B', reasoning: false },
];

describe('/model arguments', () => {
  it('sends provider/model as it is, even for a model the catalogue lacks (the session decides)', () => {
    expect(parseModelArgument(' offline/nope ', catalog)).toEqual({ model: { provider: 'offline', modelId: 'nope' } });
  });

  it('keeps slashes after the first as part of the model id', () => {
    expect(parseModelArgument('router/meta/llama', catalog)).toEqual({
      model: { provider: 'router', modelId: 'meta/llama' },
    });
  });

  it('accepts a bare model id that only one provider offers', () => {
    expect(parseModelArgument('echo', catalog)).toEqual({ model: { provider: 'offline', modelId: 'echo' } });
  });

  it('explains a bare id that names no model, or more than one', () => {
    expect(parseModelArgument('nope', catalog)).toEqual({ problem: expect.stringContaining('No model "nope"') });
    expect(parseModelArgument('shared', catalog)).toEqual({
      problem: expect.stringContaining('More than one provider offers "shared"'),
    });
    expect(parseModelArgument('offline/', catalog)).toEqual({ problem: expect.stringContaining('No model') });
  });
});
