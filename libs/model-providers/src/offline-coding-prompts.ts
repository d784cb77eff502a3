import type { JsonObject } from '@pi/agent';

/** A coding tool call a plain prompt asks for: the tool's name and its arguments. */
export interface CodingPromptCall {
  readonly name: string;
  readonly arguments: JsonObject;
}

// One argument: a quoted text ("…", '…' or `…`, quotes dropped) or, unquoted, as little as lets the rest match.
const QUOTED = '"[^"]*"|\'[^\']*\'|`[^`]*`';
const TEXT = `(${QUOTED}|[\\s\\S]+?)`;
const WORD = `(${QUOTED}|\\S+)`;

interface Rule {
  readonly pattern: RegExp;
  readonly call: (match: RegExpExecArray) => CodingPromptCall;
}

const RULES: readonly Rule[] = [
  {
    // read README.md | read the file src/a.ts
    pattern: new RegExp(`^read\\s+(?:the\\s+file\\s+)?${WORD}$`, 'i'),
    call: (match) => ({ name: 'read', arguments: { path: unquote(match[1]) } }),
  },
  {
    // run ls | run `echo hi`
    pattern: /^run\s+([\s\S]+)$/i,
    call: (match) => ({ name: 'bash', arguments: { command: unquote(match[1]) } }),
  },
  {
    // replace X with Y in [file] F | replace all X with Y in F
    pattern: new RegExp(
      `^replace\\s+(all\\s+)?${TEXT}\\s+with\\s+${TEXT}\\s+in\\s+(?:the\\s+)?(?:file\\s+)?${WORD}$`,
      'i',
    ),
    call: (match) => ({
      name: 'edit',
      arguments: {
        path: unquote(match[4]),
        oldText: unquote(match[2]),
        newText: unquote(match[3]),
        ...(match[1] === undefined ? {} : { replaceAll: true }),
      },
    }),
  },
  {
    // list files | list the files in src | ls | ls src
    pattern: new RegExp(`^(?:list(?:\\s+the)?\\s+files|ls)(?:\\s+(?:in\\s+)?${WORD})?$`, 'i'),
    call: (match) => ({ name: 'ls', arguments: withPath({}, match[1]) }),
  },
  {
    // find *.ts | find *.ts in src
    pattern: new RegExp(`^find\\s+${WORD}(?:\\s+in\\s+${WORD})?$`, 'i'),
    call: (match) => ({ name: 'find', arguments: withPath({ pattern: unquote(match[1]) }, match[2]) }),
  },
  {
    // grep TODO | grep "a b" in src
    pattern: new RegExp(`^grep\\s+${WORD}(?:\\s+in\\s+${WORD})?$`, 'i'),
    call: (match) => ({ name: 'grep', arguments: withPath({ pattern: unquote(match[1]) }, match[2]) }),
  },
];

/**
 * Reads a plain prompt that asks for a coding tool, the whole prompt being one of:
 * `read <file>`, `run <command>`, `replace [all] <old> with <new> in [file] <file>`, `list files [in <dir>]`
 * (or `ls [<dir>]`), `find <glob> [in <dir>]`, `grep <regex> [in <path>]`. Arguments may be quoted with
 * "…", '…' or `…` (needed when <old> contains " with "). Returns null for any other prompt.
 */
export function parseCodingPrompt(prompt: string): CodingPromptCall | null {
  const text = prompt.trim();
  for (const rule of RULES) {
    const match = rule.pattern.exec(text);
    if (match !== null) return rule.call(match);
  }
  return null;
}

function unquote(value: string | undefined): string {
  const text = value ?? '';
  const quoted = /^(["'`])([\s\S]*)\1$/.exec(text);
  return quoted === null ? text : (quoted[2] ?? '');
}

function withPath(args: JsonObject, path: string | undefined): JsonObject {
  return path === undefined ? args : { ...args, path: unquote(path) };
}
