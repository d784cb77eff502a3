/** A tool as the system prompt lists it. */
export interface PromptTool {
  readonly name: string;
  readonly description: string;
}

/**
 * pi's own system prompt: who the model is, one line per tool it is offered (any plugin's tool, from its
 * description), and working guidelines that name only tools it has. The full descriptions and argument schemas
 * go with the request's tool list; this is the overview a model plans with.
 */
export function defaultSystemPrompt(tools: readonly PromptTool[]): string {
  const has = (name: string) => tools.some((tool) => tool.name === name);
  // Paragraphs are single lines: a model reads hard line breaks as structure.
  const lines = [
    [
      "You are pi, a coding agent. You work in the user's project through the tools below: you read and change",
      'files, run commands, and answer questions about the code. Do the task you are given, check that it works,',
      'and report plainly what you did and what you could not do.',
    ].join(' '),
    '',
  ];
  if (tools.length === 0) {
    lines.push('No tools are available in this session: answer from the conversation alone.');
  } else {
    lines.push('Tools:');
    for (const tool of tools) lines.push(`- ${tool.name}: ${summaryOf(tool.description)}`);
  }
  lines.push('', 'Guidelines:');
  const searchTools = ['grep', 'find', 'ls'].filter(has);
  if (has('read')) {
    const search =
      searchTools.length === 0 ? '' : `, and find files with ${joinNames(searchTools)} instead of guessing paths`;
    lines.push(`- Read a file before you change it${search}.`);
  }
  if (has('edit') && has('write')) {
    lines.push('- Change existing files with edit (exact replacements); use write for new files or complete rewrites.');
  } else if (has('write')) {
    lines.push('- write replaces a whole file: read it first and keep what should stay.');
  }
  if (has('bash')) {
    lines.push('- Use bash to build, test and run the project; prefer the file tools for reading and searching files.');
  }
  if (has('question')) {
    lines.push('- When the request is ambiguous or a step cannot be undone, ask with the question tool first.');
  }
  lines.push(
    "- Keep changes as small as the task allows, in the project's existing style and conventions.",
    '- Be concise. Refer to files by their paths; show code only when it helps the user.',
  );
  return lines.join('\n');
}

/** The first sentence of a tool's description (up to the first period that ends a sentence), on one line. */
export function summaryOf(description: string): string {
  const flat = description.replace(/\s+/g, ' ').trim();
  const end = flat.search(/[.!?](\s|$)/);
  return end === -1 ? flat : flat.slice(0, end + 1);
}

function joinNames(names: readonly string[]): string {
  return names.length === 1 ? String(names[0]) : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}
