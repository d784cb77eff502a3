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

/** A gate that records every call it is asked about and allows it. */
function recordingGate(checked: unknown[]): PermissionGate {
  return {
    check: async (_tool, args) => {
      checked.push(args);
      return { allowed: true };
    },
  };
}

const refusal = {
  content: [{ type: 'text' as const, text: 'Refused: ../x is outside the working directory.' }],
  details: { failure: 'outside_workspace', path: null },
  isError: true,
};

/** A stand-in write whose preflight refuses any path starting with `..`, as a workspace check would. */
function standInWrite(ran: unknown[]): AnyAgentTool {
  return {
    ...standInBash(ran),
    name: 'write',
    parameters: z.object({ path: z.string() }),
    preflight: async (args: { path: string }) => (args.path.startsWith('..') ? refusal : null),
  };
}

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

  it('returns the tool’s own refusal from its preflight without asking the gate, and the tool never runs', async () => {
    const ran: unknown[] = [];
    const checked: unknown[] = [];
    const guarded = guardedTool('write', standInWrite(ran), recordingGate(checked));
    expect(await guarded.execute({ path: '../x' }, BACKGROUND_CONTEXT)).toEqual(refusal);
    expect(checked).toEqual([]);
    expect(ran).toEqual([]);

    await guarded.execute({ path: 'inside.txt' }, BACKGROUND_CONTEXT);
    expect(checked).toEqual([{ path: 'inside.txt' }]);
    expect(ran).toEqual([{ path: 'inside.txt' }]);
  });

  it('carries the inner preflight outward, for a wrapper listed after it', () => {
    const inner = standInWrite([]);
    expect(guardedTool('write', inner, gateSaying({ allowed: true })).preflight).toBe(inner.preflight);
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
