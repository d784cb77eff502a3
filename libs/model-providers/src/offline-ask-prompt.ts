/** What "ask me …" in a prompt turns into: a question for the `question` tool and its options. */
export interface AskPrompt {
  readonly question: string;
  readonly options: readonly string[];
}

// "ask me" anywhere in the prompt starts the request; the rest of the prompt is what to ask.
const askMePattern = /\bask me\b[\s,]*(.*)$/is;
const trailingPunctuation = /[\s.?!:;,]+$/;
const optionSeparator = /\s*,\s*(?:or\s+)?|\s+or\s+/i;

/**
 * Reads `ask me <question>[: <option>, <option> or <option>]`, e.g. "ask me which color I like: red, green or
 * blue" → { question: 'Which color I like?', options: ['red', 'green', 'blue'] }. Returns null when the prompt
 * does not ask to be asked, or asks nothing.
 */
export function parseAskPrompt(prompt: string): AskPrompt | null {
  const match = askMePattern.exec(prompt);
  const request = match?.[1]?.trim() ?? '';
  const colon = request.indexOf(':');
  const questionText = (colon === -1 ? request : request.slice(0, colon)).replace(trailingPunctuation, '').trim();
  if (questionText === '') return null;
  const optionsText = colon === -1 ? '' : request.slice(colon + 1);
  return { question: asQuestion(questionText), options: splitOptions(optionsText) };
}

function asQuestion(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}?`;
}

function splitOptions(text: string): string[] {
  const trimmed = text.replace(trailingPunctuation, '').trim();
  if (trimmed === '') return [];
  return trimmed
    .split(optionSeparator)
    .map((option) =>
      option
        .trim()
        .replace(/^(["'])(.*)\1$/, '$2')
        .trim(),
    )
    .filter((option) => option !== '');
}
