import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PROCESS_TEST_TIMEOUT_MS, createCoordinatorSandbox, type CoordinatorSandbox } from './coordinator-sandbox';

let sandbox: CoordinatorSandbox | undefined;
afterEach(async () => {
  await sandbox?.cleanUp();
  sandbox = undefined;
}, PROCESS_TEST_TIMEOUT_MS);

/** A plugin with a coordinator and a session facet, each its own module, noting `<host>:<name>` when imported. */
async function notingPlugin(folder: string, name: string, marks: string): Promise<void> {
  await mkdir(folder, { recursive: true });
  const facets = { coordinator: './coordinator.mjs', session: './session.mjs' };
  await writeFile(
    join(folder, 'package.json'),
    JSON.stringify({ name, type: 'module', pi: { apiVersion: '2.0', facets } }),
  );
  for (const host of ['coordinator', 'session']) {
    const note = `import { appendFileSync } from 'node:fs';\nappendFileSync(${JSON.stringify(marks)}, ${JSON.stringify(`${host}:${name}\n`)});\nexport default () => {};\n`;
    await writeFile(join(folder, `${host}.mjs`), note);
  }
}

describe('plugin scopes in the coordinator and the sessions it starts', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('the coordinator loads the global plugin but never the project’s; the session loads both', async () => {
    const box = (sandbox = await createCoordinatorSandbox());
    const marks = join(box.root, 'marks.txt');
    const configDir = join(box.env['XDG_CONFIG_HOME'] ?? '', 'pi');
    await notingPlugin(join(configDir, 'global-plugin'), 'global-plugin', marks);
    await writeFile(join(configDir, 'plugins.json'), JSON.stringify({ plugins: ['./global-plugin'] }));
    await notingPlugin(join(box.project, '.pi', 'project-plugin'), 'project-plugin', marks);
    await writeFile(join(box.project, '.pi', 'plugins.json'), JSON.stringify({ plugins: ['./project-plugin'] }));

    const run = await box.coordinator(['start']);
    expect(run, run.stderr).toMatchObject({ code: 0 });
    const { directory } = await box.directory();
    const session = await box.createSession(directory);
    expect(session.status).toMatch(/^(idle|active)$/);

    const noted = (await readFile(marks, 'utf8')).split('\n').filter((line) => line !== '');
    expect(noted.sort()).toEqual(['coordinator:global-plugin', 'session:global-plugin', 'session:project-plugin']);
  });
});
