import type { PromptResourcesStatus } from '@pi/prompt-resources';

/** The most names the welcome lists of each kind before it says how many more there are. */
const LISTED = 6;

/** What a new session says of the skills and templates found ('' when there are none). */
export function welcomeText(status: PromptResourcesStatus): string {
  const listed = (names: readonly string[]) =>
    names.length > LISTED ? `${names.slice(0, LISTED).join(', ')} and ${names.length - LISTED} more` : names.join(', ');
  const parts: string[] = [];
  if (status.skills.length > 0) {
    parts.push(`Skills: ${listed(status.skills.map((skill) => skill.name))} (/skill:name loads one)`);
  }
  if (status.templates.length > 0) {
    parts.push(`Prompt templates: ${listed(status.templates.map((template) => `/${template.name}`))}`);
  }
  return parts.join(' · ');
}
