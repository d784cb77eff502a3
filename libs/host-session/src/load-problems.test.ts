import { afterEach, describe, expect, it } from 'vitest';
import { Diagnostics } from '@pi/plugin-api';
import { TRANSPORTS, eventually } from '@pi/test-support';
import { startTestSessionHost } from './testing';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe.each(TRANSPORTS)('plugins left out at start, as a client sees them over %s', (transport) => {
  it('are load errors of the host in the diagnostics, counted as unseen', async () => {
    const problem = 'manifest /p/.pi/plugins.json is not valid JSON (the project plugins were not loaded)';
    const fixture = await startTestSessionHost({
      transport,
      facets: [{ id: '@t/quiet', facet: () => undefined }],
      loadProblems: [problem],
    });
    cleanups.push(() => fixture.close());
    const client = await fixture.connect();
    const diagnostics = (await client.acquire(Diagnostics)).service;

    await eventually(() => diagnostics.state.value.unseen === 1);
    expect(
      diagnostics.state.value.entries.map(({ source, kind, severity, message }) => ({
        source,
        kind,
        severity,
        message,
      })),
    ).toEqual([{ source: 'host', kind: 'load', severity: 'error', message: problem }]);
  });

  it('are nothing when the set loaded whole', async () => {
    const fixture = await startTestSessionHost({ transport, facets: [{ id: '@t/quiet', facet: () => undefined }] });
    cleanups.push(() => fixture.close());
    const client = await fixture.connect();
    const diagnostics = (await client.acquire(Diagnostics)).service;
    await eventually(() => Array.isArray(diagnostics.state.value.entries));
    expect(diagnostics.state.value.entries.filter((entry) => entry.kind === 'load')).toEqual([]);
  });
});
