/**
 * A template's arguments as a shell would split them: at whitespace, except inside "double" or 'single' quotes
 * (which are removed). `/review "src/a b.ts" fast` → `src/a b.ts`, `fast`.
 */
export function splitArguments(args: string): string[] {
  const words: string[] = [];
  let current = '';
  let quote: '"' | "'" | null = null;
  let started = false;
  for (const character of args) {
    if (quote !== null) {
      if (character === quote) quote = null;
      else current += character;
    } else if (character === '"' || character === "'") {
      quote = character;
      started = true;
    } else if (/\s/u.test(character)) {
      if (started) words.push(current);
      current = '';
      started = false;
    } else {
      current += character;
      started = true;
    }
  }
  if (started) words.push(current);
  return words;
}

/** `$1`…`$N`, `$@` and `$ARGUMENTS`, `${@:N}` and `${@:N:L}` (as in bash: from the N-th, L of them). */
const PLACEHOLDER = /\$\{@:(\d+)(?::(\d+))?\}|\$ARGUMENTS\b|\$@|\$(\d+)/g;

/** Whether a template's text takes arguments at all. */
export function hasPlaceholders(template: string): boolean {
  return new RegExp(PLACEHOLDER.source).test(template);
}

/**
 * The template's text with its placeholders replaced by `args` (a missing argument is empty). A template without
 * placeholders gets the arguments after its text, so `/review only the parser` still says what to focus on.
 */
export function applyArguments(template: string, args: string): string {
  const words = splitArguments(args);
  let placeholders = 0;
  const text = template.replace(PLACEHOLDER, (whole, from?: string, count?: string, position?: string) => {
    placeholders += 1;
    if (position !== undefined) return words[Number(position) - 1] ?? '';
    if (from !== undefined) {
      const start = Math.max(Number(from) - 1, 0);
      return words.slice(start, count === undefined ? undefined : start + Number(count)).join(' ');
    }
    return words.join(' ');
  });
  if (placeholders > 0 || args.trim() === '') return text;
  return `${text}\n\n${args.trim()}`;
}
