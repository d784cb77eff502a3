import { afterEach, describe, expect, it } from 'vitest';
import { startTestTuiHost } from '@pi/host-tui/testing';
import type { CodingAgentTuiPluginContext } from '@pi/plugin-api';
import { startRpcFixture } from '@pi/test-support';
import { CORE_TOOL_NAMES } from '@pi/tools-core';
import { CORE_TOOL_RENDERERS, toolsCoreTuiFacet } from './tools-core-tui-facet';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('the tools-core TUI facet', () => {
  it('registers a renderer for each coding tool, in force for the transcript’s owner', async () => {
    const rpc = await startRpcFixture('loopback');
    cleanups.push(() => rpc.close());
    let probe: CodingAgentTuiPluginContext | undefined;
    const tui = await startTestTuiHost({
      facets: { '@pi/tools-core': toolsCoreTuiFacet, '@test/probe': (context) => void (probe = context) },
      client: await rpc.connect(),
    });
    cleanups.push(() => tui.stop());
    for (const name of Object.values(CORE_TOOL_NAMES)) {
      expect(probe?.toolRenderers.get(name)).toBe(CORE_TOOL_RENDERERS[name]);
    }
    expect(tui.host.failures()).toEqual([]);
  });
});
