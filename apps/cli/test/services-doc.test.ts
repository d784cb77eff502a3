import { expect, it } from 'vitest';
import { REGENERATE } from '../src/services-doc/render-markdown';
import { currentServicesDoc, generateServicesDoc } from '../src/services-doc/services-doc';

/** Starts a real pi-session (a process): generous, never asserted on. */
const TIMEOUT_MS = 60_000;

it(
  `docs/services.md is what a default session describes now (else: ${REGENERATE})`,
  async () => {
    const generated = await generateServicesDoc();
    expect(generated).toContain('## chat');
    expect(generated).not.toContain('(not in a manifest contract)');
    expect(await currentServicesDoc(), `docs/services.md is stale: run ${REGENERATE}`).toBe(generated);
  },
  TIMEOUT_MS,
);
