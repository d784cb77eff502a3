import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BACKGROUND_CONTEXT, type AnyAgentTool } from '@pi/plugin-api';
import { guardedTool } from './guarded-tool';
import type { PermissionGate, Verdict } from './permission-gate';

function standInBash(ran: unknown[]): AnyAgentTool {
  return {
    name: 'bash',
    label: 'Bash',
    description: 'runs a command',
    executionMode: 'sequential',
    parameters: z.object({ command: z.string() }),
    execute: async (args) => {
      ran.push(args);
      return { content: [{ type: 'text', text: 'ran' }], details: null };
    },
  };
}

const gateSaying = (verdict: Verdict): PermissionGate => ({ check: async () => verdict });

describe('a guarded tool', () => {
  it('keeps the tool’s name, schema and execution mode', () => {
    const inner = standInBash([]);
    const guarded = guardedTool('bash', inner, gateSaying({ allowed: true }));
    expect(guarded).toMatchObject({ name: 'bash', label: 'Bash', executionMode: 'sequential' });
    expect(guarded.parameters).toBe(inner.parameters);
  });

  it('runs the inner tool when allowed, with the same arguments', async () => {
    const ran: unknown[] = [];
    const result = await guardedTool('bash', standInBash(ran), gateSaying({ allowed: true })).execute(
      { command: 'ls' },
      BACKGROUND_CONTEXT,
    );
    expect(result.content).toEqual([{ type: 'text', text: 'ran' }]);
    expect(ran).toEqual([{ command: 'ls' }]);
  });

  it('returns a denial saying why, and the inner tool never runs', async () => {
    const ran: unknown[] = [];
    const result = await guardedTool('bash', standInBash(ran), gateSaying({ allowed: false, code: 'timeout' })).execute(
      { command: 'ls' },
      BACKGROUND_CONTEXT,
    );
    expect(ran).toEqual([]);
    expect(result).toEqual({
      content: [
        { type: 'text', text: 'Permission denied: the user did not answer in time; bash did not run (timeout)' },
      ],
      details: { permission: 'denied', tool: 'bash', code: 'timeout' },
      isError: true,
    });
  });
});
