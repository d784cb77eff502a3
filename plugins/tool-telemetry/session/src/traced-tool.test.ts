import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BACKGROUND_CONTEXT, type AgentToolResult, type AnyAgentTool } from '@pi/plugin-api';
import { installInMemoryTelemetry, type InMemoryTelemetry } from '@pi/context/testing';
import { tracedTool } from './traced-tool';

const SECRET = 'sk-live-4f9a';

let telemetry: InMemoryTelemetry;
beforeEach(() => {
  telemetry = installInMemoryTelemetry();
});
afterEach(() => telemetry.uninstall());

function tool(execute: AnyAgentTool['execute']): AnyAgentTool {
  return {
    name: 'bash',
    label: 'Bash',
    description: 'runs a command',
    executionMode: 'sequential',
    parameters: z.object({ command: z.string() }),
    execute,
  };
}

const answer = (text: string, isError = false): AgentToolResult => ({
  content: [{ type: 'text', text }],
  details: { output: text },
  ...(isError ? { isError: true } : {}),
});

describe('a traced tool', () => {
  it('records one span per execution, named after the tool, with its name and outcome', async () => {
    const traced = tracedTool(
      'bash',
      tool(async () => answer('done')),
    );
    await traced.execute({ command: 'ls' }, BACKGROUND_CONTEXT);
    await traced.execute({ command: 'ls' }, BACKGROUND_CONTEXT);
    expect(telemetry.spans().map(({ name, attributes, status }) => ({ name, attributes, status }))).toEqual([
      { name: 'tool.bash', attributes: { 'pi.tool.name': 'bash', 'pi.tool.outcome': 'ok' }, status: 'unset' },
      { name: 'tool.bash', attributes: { 'pi.tool.name': 'bash', 'pi.tool.outcome': 'ok' }, status: 'unset' },
    ]);
  });

  it('keeps the tool’s result, name, schema and execution mode', async () => {
    const inner = tool(async () => answer('done'));
    const traced = tracedTool('bash', inner);
    expect(traced).toMatchObject({ name: 'bash', executionMode: 'sequential' });
    expect(traced.parameters).toBe(inner.parameters);
    expect(await traced.execute({ command: 'ls' }, BACKGROUND_CONTEXT)).toEqual(answer('done'));
  });

  it('marks an error result as the outcome error', async () => {
    await tracedTool(
      'bash',
      tool(async () => answer('exit 1', true)),
    ).execute({ command: 'false' }, BACKGROUND_CONTEXT);
    expect(telemetry.spans()[0]?.attributes['pi.tool.outcome']).toBe('error');
  });

  it('rethrows the tool’s own error, and records only that the tool threw', async () => {
    const failure = new Error(`cannot read /home/u/.env: ${SECRET}`);
    const traced = tracedTool(
      'bash',
      tool(async () => {
        throw failure;
      }),
    );
    await expect(traced.execute({ command: 'cat .env' }, BACKGROUND_CONTEXT)).rejects.toBe(failure);
    expect(telemetry.spans()).toMatchObject([
      { name: 'tool.bash', status: 'error', attributes: { 'pi.tool.outcome': 'threw' }, events: ['exception'] },
    ]);
    expect(JSON.stringify(telemetry.spans())).not.toContain(SECRET);
  });

  it('never records the arguments or the output', async () => {
    await tracedTool(
      'bash',
      tool(async () => answer(`token=${SECRET}`)),
    ).execute({ command: `curl -H "Authorization: ${SECRET}"` }, BACKGROUND_CONTEXT);
    expect(JSON.stringify(telemetry.spans())).not.toContain(SECRET);
    expect(Object.keys(telemetry.spans()[0]?.attributes ?? {}).sort()).toEqual(['pi.tool.name', 'pi.tool.outcome']);
  });

  it('runs the inner tool under its span, so what the tool starts is its child', async () => {
    await tracedTool(
      'bash',
      tool((_args, context) => context.telemetryContext.startSpan({ name: 'inner.work' }, async () => answer('done'))),
    ).execute({ command: 'ls' }, BACKGROUND_CONTEXT);
    const [inner, outer] = telemetry.spans();
    expect(outer?.name).toBe('tool.bash');
    expect(inner).toMatchObject({ name: 'inner.work', parentSpanId: outer?.spanId, traceId: outer?.traceId });
  });
});
