import { describe, expect, it } from 'vitest';
import { createRegistry } from './contribution-registry';

type Run = (command: string) => string[];

const manifest = ['@pi/core-tools', '@pi/sandbox', '@pi/permissions', '@pi/telemetry'];

function toolRegistry() {
  return createRegistry<Run, ReadonlyMap<string, Run>>({
    name: 'tools',
    ownerRank: (owner) => manifest.indexOf(owner),
    build: (entries) => new Map(entries),
  });
}

const labelled =
  (label: string) =>
  (inner: Run): Run =>
  (command) => [label, ...inner(command)];

function bash(registry: ReturnType<typeof toolRegistry>): string[] {
  const run = registry.current().get('bash');
  if (run === undefined) throw new Error('bash is missing');
  return run('ls');
}

describe('wrapping through contributions', () => {
  it('composes wrappers in manifest order, not registration order, and drops a removed one cleanly', () => {
    const registry = toolRegistry();
    registry.add('@pi/telemetry', (draft) => draft.wrap('bash', labelled('telemetry')));
    const removePermission = registry.add('@pi/permissions', (draft) => draft.wrap('bash', labelled('permission')));
    registry.add('@pi/sandbox', (draft) => draft.wrap('bash', labelled('sandbox')));
    registry.add('@pi/core-tools', (draft) => draft.set('bash', (command) => [`core ${command}`]));

    registry.rebuild();
    expect(bash(registry)).toEqual(['telemetry', 'permission', 'sandbox', 'core ls']);

    removePermission();
    registry.rebuild();
    expect(bash(registry)).toEqual(['telemetry', 'sandbox', 'core ls']);
  });

  it('records the wrap stack of an entry in replay order', () => {
    const registry = toolRegistry();
    registry.add('@pi/permissions', (draft) => draft.wrap('bash', labelled('permission')));
    registry.add('@pi/core-tools', (draft) => draft.set('bash', () => []));
    const trail = registry.rebuild()._unsafeUnwrap().trails.get('bash');
    expect(trail?.map(({ owner, operation }) => `${owner}:${operation}`)).toEqual([
      '@pi/core-tools:set',
      '@pi/permissions:wrap',
    ]);
  });

  it('applies every wrapper and update exactly once however often it rebuilds', () => {
    interface Tool {
      readonly tags: string[];
      readonly run: Run;
    }
    const coreTool: Tool = { tags: ['core'], run: (command) => [`core ${command}`] };
    const registry = createRegistry<Tool, ReadonlyMap<string, Tool>>({
      name: 'tools',
      ownerRank: (owner) => manifest.indexOf(owner),
      build: (entries) => new Map(entries),
    });
    registry.add('@pi/core-tools', (draft) => draft.set('bash', coreTool));
    registry.add('@pi/sandbox', (draft) => draft.update('bash', (tool) => tool.tags.push('sandboxed')));
    registry.add('@pi/telemetry', (draft) =>
      draft.wrap('bash', (inner) => ({ ...inner, run: (command) => ['telemetry', ...inner.run(command)] })),
    );

    for (let round = 0; round < 1000; round += 1) registry.rebuild();

    const tool = registry.current().get('bash');
    expect(tool?.tags).toEqual(['core', 'sandboxed']);
    expect(tool?.run('ls')).toEqual(['telemetry', 'core ls']);
    expect(coreTool.tags).toEqual(['core']);
  });
});
