/** What one input event did to the editor. */
export type EditResult =
  | { readonly kind: 'submit'; readonly text: string; readonly action: 'submit' | 'followUp' }
  /** The text changed: re-render. */
  | { readonly kind: 'changed' }
  /** Only the cursor moved: re-render. */
  | { readonly kind: 'moved' }
  /** Not an editor key, or nothing to do (Backspace at the start): the host may use the key. */
  | { readonly kind: 'ignored' };

export interface EditorSnapshot {
  /** The text with paste markers (what the cursor moves over). */
  readonly text: string;
  readonly cursor: number;
}
