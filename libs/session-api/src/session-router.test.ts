import { createTRPCClient } from '@trpc/client';
import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { ChatEvent, PromptRequest, PromptResponse, TranscriptHead } from '@pi/chat';
import type { ModelRef, ModelsState } from '@pi/providers-builtin';
import type { PreferenceKey } from '@pi/settings';
import type { HelloAnswer, ServiceWatchFrame } from '@pi/transport-trpc';
import type { ChatService } from '@pi/chat';
import { sessionInteractions, sessionTokens, type SessionRouter } from './session-tokens';

type Inputs = inferRouterInputs<SessionRouter>;
type Outputs = inferRouterOutputs<SessionRouter>;
/** Type-level only: never called, it gives the checker a stock client to look at. */
const _client = () => createTRPCClient<SessionRouter>({ links: [] });
type Client = ReturnType<typeof _client>;

describe('SessionRouter: the built-in session for a stock tRPC client', () => {
  it('types method inputs and outputs from the plugin contracts', () => {
    expectTypeOf<Inputs['models']['select']['a']>().toEqualTypeOf<[ModelRef]>();
    expectTypeOf<Outputs['models']['refresh']>().toEqualTypeOf<{ value?: undefined }>();
    expectTypeOf<Inputs['chat']['prompt']['a']>().toEqualTypeOf<[PromptRequest]>();
    expectTypeOf<Outputs['chat']['prompt']>().toEqualTypeOf<{ value: PromptResponse }>();
    expectTypeOf<Inputs['preferences']['set']['a'][0]>().toEqualTypeOf<PreferenceKey>();
    expectTypeOf<Outputs['$rpc']['hello']>().toEqualTypeOf<HelloAnswer>();
  });

  it('types $watch frames by state cell and event stream', () => {
    const watch = (client: Client) =>
      client.models.$watch.subscribe(undefined, {
        onData: (frame) => {
          if (frame.kind === 'snapshot') expectTypeOf(frame.state.state.value).toEqualTypeOf<ModelsState>();
          if (frame.kind === 'state') expectTypeOf(frame.cell).toEqualTypeOf<'state'>();
        },
      });
    expect(watch).toBeTypeOf('function');
    type ChatFrame = ServiceWatchFrame<ChatService>;
    expectTypeOf<Extract<ChatFrame, { kind: 'event' }>['event']>().toEqualTypeOf<ChatEvent>();
    expectTypeOf<Extract<ChatFrame, { kind: 'state'; cell: 'transcript' }>['value']>().toEqualTypeOf<TranscriptHead>();
  });
});

describe('sessionTokens', () => {
  it('keys every built-in service token by its id', () => {
    for (const [id, token] of Object.entries(sessionTokens)) expect(token.id).toBe(id);
    expect(Object.keys(sessionTokens)).toEqual([
      'accounts',
      'chat',
      'diagnostics',
      'git',
      'models',
      'plugins',
      'preferences',
      'presence',
      'project-files',
      'prompt-resources',
      'session-picker',
      'settings-catalog',
      'storage',
      'system-prompt',
      'tree',
      'views',
    ]);
    for (const [id, interaction] of Object.entries(sessionInteractions)) expect(interaction.id).toBe(id);
  });
});
