import type { SkillInfo } from '@pi/prompt-resources';

/**
 * The system prompt's list of skills the model may load: each one's name, description and file, and how to load
 * one (read its file with the read tool). Empty when no skill is offered to the model.
 */
export function skillsSection(skills: readonly SkillInfo[]): string {
  const offered = skills.filter((skill) => skill.modelInvocable);
  if (offered.length === 0) return '';
  return [
    '# Skills',
    '',
    "Skills are instructions for particular tasks, kept in files. When a task matches a skill's description, read",
    "its file with the read tool before you start, and follow it. Paths in a skill are relative to its file's",
    'directory.',
    '',
    '<available_skills>',
    ...offered.flatMap((skill) => [
      '  <skill>',
      `    <name>${escapeXml(skill.name)}</name>`,
      `    <description>${escapeXml(skill.description)}</description>`,
      `    <location>${escapeXml(skill.path)}</location>`,
      '  </skill>',
    ]),
    '</available_skills>',
  ].join('\n');
}

function escapeXml(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
}
