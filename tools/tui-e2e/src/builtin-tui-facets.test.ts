import { expect, it } from 'vitest';
import { loadFacets, readManifestSource } from '@pi/host-kit';
import { providersBuiltinTuiFacet } from '@pi/providers-builtin-tui';
import { questionTuiFacet } from '@pi/question-tui';

it('the built-in manifest gives a TUI the model picker and the question dialog, from the contracts’ "pi" metadata', async () => {
  const source = (await readManifestSource(undefined))._unsafeUnwrap();
  const loaded = (await loadFacets(source.manifest, 'tui', source.lookup))._unsafeUnwrap();
  const byId = new Map(loaded.map((facet) => [facet.id, facet.facet]));
  expect(byId.get('@pi/providers-builtin')).toBe(providersBuiltinTuiFacet);
  expect(byId.get('@pi/question')).toBe(questionTuiFacet);
});
