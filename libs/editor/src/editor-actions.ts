import type { Action } from '@pi/terminal';
import type { EditResult, EditorSnapshot } from './edit-result';
import { wordLeft, wordRight } from './word-motion';

/**
 * What each editor action does, in the order the editor tries them: the first bound action that applies wins.
 * `cursorUp` on the first row (and `cursorDown` on the last) does not apply, so the same key falls through to
 * `historyPrevious` / `historyNext`.
 */
export const EDITOR_ACTIONS = [
  'submit',
  'followUp',
  'newline',
  'cursorUp',
  'historyPrevious',
  'cursorDown',
  'historyNext',
  'cursorLeft',
  'cursorRight',
  'cursorWordLeft',
  'cursorWordRight',
  'cursorLineStart',
  'cursorLineEnd',
  'deleteBackward',
  'deleteForward',
  'deleteWordBackward',
  'deleteWordForward',
  'deleteToLineEnd',
  'deleteToLineStart',
  'undo',
  'redo',
] as const satisfies readonly Action[];

export type EditorAction = (typeof EDITOR_ACTIONS)[number];

/** The editor operations the actions are made of. */
export interface ActionTarget {
  snapshot(): EditorSnapshot;
  submit(action: 'submit' | 'followUp'): EditResult;
  edit(kind: string | undefined, from: number, to: number, insert: string): EditResult;
  moveTo(offset: number): EditResult;
  moveVertically(direction: -1 | 1): EditResult;
  neighbour(direction: -1 | 1): number;
  cursorRow(): { row: number; rows: number };
  walkHistory(direction: -1 | 1): EditResult;
  undo(): EditResult;
  redo(): EditResult;
}

function lineStart(text: string, cursor: number): number {
  return cursor === 0 ? 0 : text.lastIndexOf('\n', cursor - 1) + 1;
}

function lineEnd(text: string, cursor: number): number {
  const end = text.indexOf('\n', cursor);
  return end === -1 ? text.length : end;
}

/**
 * Applies an action; undefined means it does not apply here and the next bound action may. `verticalKey` says
 * the key is also a cursor up/down key, so at the end of the history it moves the cursor to the text's end.
 */
export function applyEditorAction(
  editor: ActionTarget,
  action: EditorAction,
  verticalKey: boolean,
): EditResult | undefined {
  const { text, cursor } = editor.snapshot();
  switch (action) {
    case 'submit':
    case 'followUp':
      return editor.submit(action);
    case 'newline':
      return editor.edit(undefined, cursor, cursor, '\n');
    case 'cursorUp':
      return editor.cursorRow().row > 0 ? editor.moveVertically(-1) : undefined;
    case 'cursorDown': {
      const { row, rows } = editor.cursorRow();
      return row < rows - 1 ? editor.moveVertically(1) : undefined;
    }
    case 'historyPrevious': {
      const walked = editor.walkHistory(-1);
      return walked.kind === 'ignored' && verticalKey ? editor.moveTo(0) : walked;
    }
    case 'historyNext': {
      const walked = editor.walkHistory(1);
      return walked.kind === 'ignored' && verticalKey ? editor.moveTo(text.length) : walked;
    }
    case 'cursorLeft':
      return editor.moveTo(editor.neighbour(-1));
    case 'cursorRight':
      return editor.moveTo(editor.neighbour(1));
    case 'cursorWordLeft':
      return editor.moveTo(wordLeft(text, cursor));
    case 'cursorWordRight':
      return editor.moveTo(wordRight(text, cursor));
    case 'cursorLineStart':
      return editor.moveTo(lineStart(text, cursor));
    case 'cursorLineEnd':
      return editor.moveTo(lineEnd(text, cursor));
    case 'deleteBackward':
      return editor.edit('deleteBackward', editor.neighbour(-1), cursor, '');
    case 'deleteForward':
      return editor.edit('deleteForward', cursor, editor.neighbour(1), '');
    case 'deleteWordBackward':
      return editor.edit(undefined, wordLeft(text, cursor), cursor, '');
    case 'deleteWordForward':
      return editor.edit(undefined, cursor, wordRight(text, cursor), '');
    case 'deleteToLineEnd': {
      const end = lineEnd(text, cursor);
      return editor.edit(undefined, cursor, end === cursor ? Math.min(text.length, end + 1) : end, '');
    }
    case 'deleteToLineStart': {
      const start = lineStart(text, cursor);
      return editor.edit(undefined, start === cursor ? Math.max(0, start - 1) : start, cursor, '');
    }
    case 'undo':
      return editor.undo();
    case 'redo':
      return editor.redo();
  }
}
