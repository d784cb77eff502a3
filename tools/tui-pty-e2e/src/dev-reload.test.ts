import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createE2eFixture, type E2eFixture } from './e2e-fixture';

let e2e: E2eFixture;
beforeEach(async () => void (e2e = await createE2eFixture()));
afterEach(() => e2e.dispose());

/**
 * A project plugin named by path in `.pi/plugins.json`: its session half reports which version went live (a warning,
 * so the footer counts it), its TUI half shows its version in the header; both read `version.mjs`.
 */
async function writeGreeterPlugin(project: string): Promise<string> {
  const folder = join(project, '.pi', 'greeter');
  await mkdir(folder, { recursive: true });
  await writeFile(join(project, '.pi', 'plugins.json'), JSON.stringify({ plugins: ['./greeter'] }));
  await writeFile(
    join(folder, 'package.json'),
    JSON.stringify({
      name: 'greeter',
      type: 'module',
      pi: { apiVersion: '2.0', facets: { session: './session.mjs', tui: './tui.mjs' } },
    }),
  );
  await writeFile(
    join(folder, 'session.mjs'),
    "import { version } from './version.mjs';\nexport default (context) => context.onActivate(() => context.diagnostics.report('warning', `greeter session ${version} is live`));\n",
  );
  await writeFile(
    join(folder, 'tui.mjs'),
    "import { version } from './version.mjs';\nexport default (context) => void context.slots.add('header', { render: () => [`greeter tui ${version}`] });\n",
  );
  await writeFile(join(folder, 'version.mjs'), "export const version = 'v1';\n");
  return folder;
}

it('--dev picks up an edited plugin in the session and the TUI without a command, and a broken save of either half keeps the running one', async () => {
  const plugin = await writeGreeterPlugin(e2e.sandbox.cwd);
  const session = await e2e.startSession(['--dev']);
  const tui = e2e.spawnTui(['--connection', session.connectionFile, '--dev']);
  await tui.waitForScreen(
    (screen) => screen.text.includes('greeter tui v1') && screen.text.includes('⚠ 1 problem'),
    'the plugin as first written, and its session half live',
  );

  await writeFile(join(plugin, 'version.mjs'), "export const version = 'v2';\n");
  await tui.waitForScreen((screen) => screen.text.includes('greeter tui v2'), 'the edited TUI half');
  tui.write('/diagnostics\r');
  const listed = await tui.waitForScreen(
    (screen) => screen.text.includes('greeter session v2 is live'),
    'the edited session half went live',
  );
  expect(listed.text).toContain('● connected');

  await writeFile(join(plugin, 'version.mjs'), 'export const version = ;\n');
  await tui.waitForScreen((screen) => screen.text.includes('problem'), 'the refused reload counted in the footer');
  tui.write('/diagnostics\r');
  const refused = await tui.waitForScreen(
    (screen) => screen.text.includes('reload refused'),
    'the refused reload in /diagnostics',
  );
  expect(refused.text).toContain('greeter tui v2');
  // Both --dev watchers reload the session (the TUI's through /reload), so which set stays live depends on timing.
  expect(session.output()).toMatch(/--dev: .*version\.mjs changed; reload refused: .*plugin set \d+ stays live/);

  // Mended, then only the TUI half broken: the session reloads, the TUI keeps its running half and says why.
  await writeFile(join(plugin, 'version.mjs'), "export const version = 'v3';\n");
  await tui.waitForScreen((screen) => screen.text.includes('greeter tui v3'), 'the mended TUI half');
  await writeFile(join(plugin, 'tui.mjs'), 'export default = ;\n');
  await tui.waitForScreen((screen) => screen.text.includes('TUI plugins kept'), 'the refused TUI half, told');
  tui.write('/diagnostics\r');
  const kept = await tui.waitForScreen(
    (screen) => screen.text.includes("this TUI's plugins stay as they were"),
    'the refused TUI half in /diagnostics',
  );
  expect(kept.text).toContain('greeter tui v3');
  expect(kept.text).not.toContain('Plugins left out');
});
