import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BACKGROUND_CONTEXT } from '@pi/plugin-api';
import { startResourcesSession } from './session-fixture';

describe.each(['loopback', 'websocket'] as const)('prompt templates in a session (%s)', (transport) => {
  it('lists the user and project templates with their description or first line, the project one first', async () => {
    const session = await startResourcesSession({
      transport,
      files: {
        'config/prompts/review.md': '---\ndescription: Review the staged changes\n---\nReview `git diff --cached`.\n',
        'config/prompts/explain.md': '\n\nExplain $1 to a newcomer.\n',
        'config/prompts/notes.txt': 'Not a template',
        'project/.pi/prompts/component.md':
          '---\ndescription: Create a component\nargument-hint: <name> [features]\n---\nCreate $1 with ${@:2}.\n',
        'project/.pi/prompts/review.md': 'Review with the project checklist.\n',
      },
    });
    const { templates, problems } = session.service.status.value;
    expect(templates.map((template) => [template.name, template.source, template.description])).toEqual([
      ['component', 'project', 'Create a component'],
      ['review', 'project', 'Review with the project checklist.'],
      ['explain', 'user', 'Explain $1 to a newcomer.'],
    ]);
    expect(templates[0]).toMatchObject({
      argumentHint: '<name> [features]',
      takesArguments: true,
      display: join('.pi', 'prompts', 'component.md'),
    });
    expect(templates[1]).toMatchObject({ argumentHint: '', takesArguments: false });
    expect(problems).toEqual([
      expect.stringMatching(
        /config\/prompts\/review\.md: skipped, the template \/review of \.pi\/prompts\/review\.md \(project\) takes its name$/,
      ),
    ]);
  });

  it('expands /name args with the arguments in their placeholders', async () => {
    const session = await startResourcesSession({
      transport,
      files: { 'project/.pi/prompts/component.md': '---\ndescription: Make one\n---\nCreate $1 with ${@:2}.\nAll: $@' },
    });
    const expand = (line: string) => session.service.expand({ line }, BACKGROUND_CONTEXT);
    await expect(expand('/component Button "click handler" disabled')).resolves.toEqual({
      kind: 'template',
      name: 'component',
      text: 'Create Button with click handler disabled.\nAll: Button click handler disabled',
    });
    await expect(expand('/component')).resolves.toMatchObject({ text: 'Create  with .\nAll: ' });
    await expect(expand('/unknown a b')).resolves.toBeNull();
    await expect(expand('plain text')).resolves.toBeNull();
  });

  it('refuses an empty line with invalid_argument before the plugin sees it', async () => {
    const session = await startResourcesSession({ transport, files: {} });
    await expect(session.service.expand({ line: '' }, BACKGROUND_CONTEXT)).rejects.toMatchObject({
      code: 'invalid_argument',
    });
  });

  it('skips template files it cannot use, naming each, and keeps the others', async () => {
    const session = await startResourcesSession({
      transport,
      files: {
        'project/.pi/prompts/fine.md': 'Fine.',
        'project/.pi/prompts/two words.md': 'Spaces.',
        'project/.pi/prompts/1st.md': 'Digit first.',
        'project/.pi/prompts/broken.md': '---\ndescription: [unclosed\n---\nText',
        'project/.pi/prompts/open.md': '---\ndescription: never closed\nText',
        'project/.pi/prompts/huge.md': 'x'.repeat(100 * 1024 + 1),
        'project/.pi/prompts/latin1.md': new Uint8Array([0x63, 0x61, 0x66, 0xe9]),
      },
    });
    const { templates, problems } = session.service.status.value;
    expect(templates.map((template) => template.name)).toEqual(['fine']);
    const at = (name: string) => join('.pi', 'prompts', name);
    expect(problems).toEqual([
      `${at('1st.md')}: skipped, "1st" cannot be typed as /1st (a letter, then letters, digits, _ or -)`,
      expect.stringMatching(new RegExp(`^${at('broken.md')}: skipped, its frontmatter is not valid YAML`)),
      `${at('huge.md')}: skipped, it is 101 KiB, over the 100 KiB limit`,
      `${at('latin1.md')}: skipped, it is not UTF-8 text`,
      `${at('open.md')}: skipped, its frontmatter has no closing ---`,
      `${at('two words.md')}: skipped, "two words" cannot be typed as /two words (a letter, then letters, digits, _ or -)`,
    ]);
  });

  it('reads the templates and skills of installed packages after the user and the project', async () => {
    const session = await startResourcesSession({
      transport,
      files: {
        'package/prompts/deploy.md': 'Deploy it.',
        'package/prompts/review.md': 'The package review.',
        'package/skills/lint/SKILL.md': '---\nname: lint\ndescription: Lints\n---\nRun the linter.',
        'project/.pi/prompts/review.md': 'The project review.',
      },
      packages: [{ skills: ['package/skills'], prompts: ['package/prompts'] }],
    });
    const { templates, skills } = session.service.status.value;
    expect(templates.map((template) => [template.name, template.source])).toEqual([
      ['review', 'project'],
      ['deploy', 'package'],
    ]);
    expect(skills.map((skill) => [skill.name, skill.source])).toEqual([['lint', 'package']]);
  });

  it('reads the skills and prompts of a package pi install put in the project, by default', async () => {
    const installed = 'project/.pi/packages/node_modules/@acme/pi-review';
    const session = await startResourcesSession({
      transport,
      files: {
        'project/.pi/packages/package.json': JSON.stringify({ dependencies: { '@acme/pi-review': '1.0.0' } }),
        [`${installed}/package.json`]: JSON.stringify({
          name: '@acme/pi-review',
          version: '1.0.0',
          pi: { skills: ['skills'], prompts: ['prompts', '../outside'] },
        }),
        [`${installed}/skills/triage/SKILL.md`]: '---\nname: triage\ndescription: Sorts issues\n---\nSort them.',
        [`${installed}/prompts/audit.md`]: 'Audit $1.',
        'project/.pi/packages/node_modules/@acme/outside/leak.md': "Not the package's own.",
      },
    });
    const { skills, templates } = session.service.status.value;
    expect(skills.map((skill) => [skill.name, skill.source])).toEqual([['triage', 'package']]);
    expect(templates.map((template) => [template.name, template.source, template.display])).toEqual([
      ['audit', 'package', join('.pi', 'packages', 'node_modules', '@acme', 'pi-review', 'prompts', 'audit.md')],
    ]);
  });
});
