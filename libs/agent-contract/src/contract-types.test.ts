import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import type { AgentTool, AgentToolResult, HarnessEvent, SessionEntry } from './index';

describe('the agent contract', () => {
  it('types a tool’s execute arguments from its zod parameters', () => {
    const parameters = z.object({ path: z.string() });
    const tool = {
      name: 'read',
      label: 'Read',
      description: 'reads a file',
      executionMode: 'parallel',
      parameters,
      execute: async (args) => {
        expectTypeOf(args).toEqualTypeOf<{ path: string }>();
        return { content: [{ type: 'text', text: args.path }], details: null };
      },
    } satisfies AgentTool<z.infer<typeof parameters>>;
    expectTypeOf(tool.execute).returns.resolves.toMatchTypeOf<AgentToolResult>();
  });

  it('narrows harness events and session entries by their discriminants', () => {
    const describeEvent = (event: HarnessEvent) => (event.type === 'text_delta' ? event.delta : event.operationId);
    expectTypeOf(describeEvent).returns.toEqualTypeOf<string | null>();
    const namespaceOf = (entry: SessionEntry) => (entry.kind === 'custom' ? entry.namespace : null);
    expectTypeOf(namespaceOf).returns.toEqualTypeOf<string | null>();
  });
});
