import { readFile } from 'node:fs/promises';
import { expect, it } from 'vitest';

it('the README quotes the session example verbatim (apps/session/test runs it against a real pi-session)', async () => {
  const readme = await readFile(new URL('../README.md', import.meta.url), 'utf8');
  const example = await readFile(new URL('../examples/session-models.ts', import.meta.url), 'utf8');
  expect(readme).toContain(example.trim());
});
