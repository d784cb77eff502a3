import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BACKGROUND_CONTEXT, type DiagnosticsState } from '@pi/plugin-api';
import { nextValue } from '@pi/test-support';
import { skillFile, startResourcesSession } from './session-fixture';

describe.each(['loopback', 'websocket'] as const)('skills in a session (%s)', (transport) => {
  it('finds skills in the user config, .pi/skills and .agents/skills, and stops at the repository root', async () => {
    const session = await startResourcesSession({
      transport,
      files: {
        'config/skills/user-one/SKILL.md': skillFile({ name: 'user-one', description: 'A user skill' }),
        'project/.pi/skills/pi-one/SKILL.md': skillFile({ name: 'pi-one', description: 'A project skill' }),
        'project/.agents/skills/agents-here/SKILL.md': skillFile({ name: 'agents-here', description: 'Here' }),
        // The session's directory is the repository's root: the walk up stops there, before the parent's skills.
        'project/.git/HEAD': 'ref: refs/heads/main\n',
        '.agents/skills/outside/SKILL.md': skillFile({ name: 'outside', description: 'Past the root' }),
      },
    });
    const { skills, problems } = session.service.status.value;
    expect(problems).toEqual([]);
    expect(skills.map((skill) => [skill.name, skill.source, skill.display])).toEqual([
      ['pi-one', 'project', join('.pi', 'skills', 'pi-one', 'SKILL.md')],
      ['agents-here', 'project', join('.agents', 'skills', 'agents-here', 'SKILL.md')],
      ['user-one', 'user', join(session.fixture.directory, 'config', 'skills', 'user-one', 'SKILL.md')],
    ]);
    expect(skills[0]).toMatchObject({
      path: join(session.project, '.pi', 'skills', 'pi-one', 'SKILL.md'),
      description: 'A project skill',
      modelInvocable: true,
    });
  });

  it('walks up for .agents/skills to the home directory when no repository root comes first', async () => {
    const session = await startResourcesSession({
      transport,
      home: '.',
      files: { '.agents/skills/from-home/SKILL.md': skillFile({ name: 'from-home', description: 'In home' }) },
    });
    expect(session.service.status.value.skills).toEqual([
      expect.objectContaining({
        name: 'from-home',
        source: 'project',
        display: join('~', '.agents', 'skills', 'from-home', 'SKILL.md'),
      }),
    ]);
  });

  it('skips a skill whose frontmatter is missing or invalid, names the file, and keeps the others', async () => {
    const session = await startResourcesSession({
      transport,
      files: {
        'project/.pi/skills/good/SKILL.md': skillFile({ name: 'good', description: 'Works' }),
        'project/.pi/skills/bare/SKILL.md': '# No frontmatter\n',
        'project/.pi/skills/broken/SKILL.md': '---\nname: [broken\n---\n',
        'project/.pi/skills/mute/SKILL.md': skillFile({ name: 'mute' }),
        'project/.pi/skills/nameless/SKILL.md': skillFile({ description: 'Who am I' }),
        'project/.pi/skills/shouty/SKILL.md': skillFile({ name: 'Shouty', description: 'Bad name' }),
        'project/.pi/skills/moved/SKILL.md': skillFile({ name: 'renamed', description: 'Kept anyway' }),
      },
    });
    const { skills, problems } = session.service.status.value;
    expect(skills.map((skill) => skill.name)).toEqual(['good', 'renamed']);
    const at = (name: string) => join('.pi', 'skills', name, 'SKILL.md');
    expect(problems).toEqual([
      `${at('bare')}: skipped, it has no frontmatter (--- name: …, description: … ---)`,
      expect.stringMatching(new RegExp(`^${at('broken')}: skipped, its frontmatter is not valid YAML`)),
      `${at('moved')}: its name "renamed" is not its directory's (moved); loaded anyway`,
      `${at('mute')}: skipped, its frontmatter has no description`,
      `${at('nameless')}: skipped, its frontmatter has no name`,
      `${at('shouty')}: skipped, its name "Shouty" is not lowercase letters, digits and single hyphens (at most 64)`,
    ]);
    const ours = (state: DiagnosticsState) => state.entries.filter((entry) => entry.source === '@pi/prompt-resources');
    const reported = ours(await nextValue(session.diagnostics.state, (state) => ours(state).length === 6));
    expect(reported[0]).toMatchObject({ kind: 'report', severity: 'warning', message: problems[0] });
  });

  it('reads the skills again on reload: a broken file still broken is not counted twice, a newly broken one is', async () => {
    const session = await startResourcesSession({
      transport,
      files: { 'project/.pi/skills/bare/SKILL.md': '# No frontmatter\n' },
    });
    const ours = (state: DiagnosticsState) => state.entries.filter((entry) => entry.source === '@pi/prompt-resources');
    await nextValue(session.diagnostics.state, (state) => ours(state).length === 1);
    await mkdir(join(session.project, '.pi', 'skills', 'mute'));
    await writeFile(join(session.project, '.pi', 'skills', 'mute', 'SKILL.md'), skillFile({ name: 'mute' }));
    await writeFile(join(session.project, '.pi', 'skills', 'good.md'), 'not a skill directory');
    expect((await session.fixture.host.reload()).ok).toBe(true);
    const after = await nextValue(session.diagnostics.state, (state) => ours(state).length === 2);
    expect(ours(after).map((entry) => entry.message)).toEqual([
      `${join('.pi', 'skills', 'bare', 'SKILL.md')}: skipped, it has no frontmatter (--- name: …, description: … ---)`,
      `${join('.pi', 'skills', 'mute', 'SKILL.md')}: skipped, its frontmatter has no description`,
    ]);
  });

  it('prefers a project skill to a user skill of the same name, and says so', async () => {
    const session = await startResourcesSession({
      transport,
      files: {
        'config/skills/review/SKILL.md': skillFile({ name: 'review', description: 'The user one' }),
        'project/.pi/skills/review/SKILL.md': skillFile({ name: 'review', description: 'The project one' }),
      },
    });
    const { skills, problems } = session.service.status.value;
    expect(skills).toEqual([
      expect.objectContaining({ name: 'review', source: 'project', description: 'The project one' }),
    ]);
    expect(problems).toEqual([
      expect.stringMatching(
        /config\/skills\/review\/SKILL\.md: skipped, the skill "review" of \.pi\/skills\/review\/SKILL\.md \(project\) takes its name$/,
      ),
    ]);
  });

  it('lists the skills to the model after the earlier system prompt, with name, description and file', async () => {
    const session = await startResourcesSession({
      transport,
      files: {
        'project/.pi/skills/pdf-tools/SKILL.md': skillFile({ name: 'pdf-tools', description: 'Reads <PDF> files' }),
        'project/.pi/skills/manual/SKILL.md': skillFile({
          name: 'manual',
          description: 'Only by hand',
          'disable-model-invocation': true,
        }),
      },
    });
    const prompt = await session.ask('hi');
    expect(prompt?.startsWith('You are a test model.\n\n# Skills\n')).toBe(true);
    expect(prompt).toContain('with the read tool');
    expect(prompt).toContain(
      [
        '  <skill>',
        '    <name>pdf-tools</name>',
        '    <description>Reads &lt;PDF&gt; files</description>',
        `    <location>${join(session.project, '.pi', 'skills', 'pdf-tools', 'SKILL.md')}</location>`,
        '  </skill>',
      ].join('\n'),
    );
    expect(prompt).not.toContain('manual');
    expect(session.service.status.value.skills.map((skill) => [skill.name, skill.modelInvocable])).toEqual([
      ['manual', false],
      ['pdf-tools', true],
    ]);
  });

  it('lists no skills to a model that has no read tool to load them with', async () => {
    const session = await startResourcesSession({
      transport,
      tools: ['bash'],
      files: { 'project/.pi/skills/pdf/SKILL.md': skillFile({ name: 'pdf', description: 'PDFs' }) },
    });
    expect(await session.ask('hi')).toBe('You are a test model.');
  });

  it('expands /skill:name into the skill in a block, followed by what the user typed after it', async () => {
    const session = await startResourcesSession({
      transport,
      files: {
        'project/.pi/skills/pdf/SKILL.md': skillFile(
          { name: 'pdf', description: 'PDFs' },
          '# PDF\n\nRun ./extract.sh.',
        ),
      },
    });
    const path = join(session.project, '.pi', 'skills', 'pdf', 'SKILL.md');
    const expanded = await session.service.expand({ line: '/skill:pdf  summarize report.pdf ' }, BACKGROUND_CONTEXT);
    expect(expanded).toEqual({
      kind: 'skill',
      name: 'pdf',
      text: [
        `<skill name="pdf" location="${path}">`,
        'Paths in this skill are relative to the directory of its location.',
        '',
        '# PDF\n\nRun ./extract.sh.',
        '</skill>',
        '',
        'summarize report.pdf',
      ].join('\n'),
    });
    expect((await session.service.expand({ line: '/skill:pdf' }, BACKGROUND_CONTEXT))?.text.endsWith('</skill>')).toBe(
      true,
    );
    await expect(session.service.expand({ line: '/skill:nope x' }, BACKGROUND_CONTEXT)).resolves.toBeNull();
    await expect(session.service.expand({ line: 'skill:pdf' }, BACKGROUND_CONTEXT)).resolves.toBeNull();
  });
});
