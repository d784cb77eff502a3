import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TOOL_TELEMETRY_PLUGIN_ID, toolSpanName } from './index';

describe('the tool-telemetry contract', () => {
  it('is a plugin whose package metadata names a session facet only', () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    expect(pkg.name).toBe(TOOL_TELEMETRY_PLUGIN_ID);
    expect(pkg.pi).toEqual({
      apiVersion: '2.0',
      description: expect.any(String),
      facets: { session: '@pi/tool-telemetry-session' },
    });
  });

  it('names a tool’s span after the tool', () => {
    expect(toolSpanName('bash')).toBe('tool.bash');
  });
});
