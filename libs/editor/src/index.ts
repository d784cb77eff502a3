export { type EditResult, type EditorSnapshot } from './edit-result';
export { Editor, type EditorOptions, type RenderedEditor } from './editor';
export { EDITOR_ACTIONS, type EditorAction } from './editor-actions';
export { UndoStack } from './undo-stack';
