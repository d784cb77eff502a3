/**
 * Splits text into word-sized pieces that concatenate back to exactly the text: each piece is a word with the
 * whitespace after it (leading whitespace rides on the first piece). Used to stream an answer in several deltas.
 */
export function wordChunks(text: string): string[] {
  const chunks = text.match(/\s*\S+\s*/g) ?? [];
  if (chunks.length === 0) return text === '' ? [] : [text];
  return chunks;
}
