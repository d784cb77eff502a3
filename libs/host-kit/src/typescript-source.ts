import * as nodeModule from 'node:module';
import { extname } from 'node:path';

type StripTypes = (code: string, options: { mode: 'strip' }) => string;

const TYPESCRIPT_EXTENSIONS = new Set(['.ts', '.mts', '.cts']);

/**
 * A module's source as JavaScript with every line and column where it was: TypeScript has its types replaced by
 * blanks (Node's own `stripTypeScriptTypes`, Node 22.13 and later); JavaScript is returned as it is. Throws when
 * this Node cannot strip types, so a TypeScript module is never checked by guesswork.
 */
export function javaScriptOf(file: string, text: string): string {
  if (!TYPESCRIPT_EXTENSIONS.has(extname(file))) return text;
  const strip = (nodeModule as unknown as { stripTypeScriptTypes?: StripTypes }).stripTypeScriptTypes;
  if (strip === undefined) {
    throw new Error(`this Node (${process.version}) cannot strip TypeScript's types (Node 22.13 and later can)`);
  }
  return strip(text, { mode: 'strip' });
}
