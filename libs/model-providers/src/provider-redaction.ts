import { ProviderError } from '@pi/agent';
import { networkCause } from './network-cause';

/** Every provider error message is cut here, after redaction, so a cut can never leave half a key behind. */
export const MAX_PROVIDER_MESSAGE_LENGTH = 300;

const REDACTED = '[redacted]';

/**
 * The one step every failure of a provider passes on its way out: whatever was thrown (a ProviderError built
 * from a server's words, a network or stream error, a bug) leaves as a ProviderError whose message has every
 * secret replaced, in any form a server could echo it, and is bounded.
 */
export function redactedFailure(thrown: unknown, secrets: readonly string[]): ProviderError {
  // Anything that is not already a ProviderError escaped the provider's own handling; it surfaces as a dropped
  // stream, since the turn cannot go on either way.
  const code = thrown instanceof ProviderError ? thrown.code : 'stream_dropped';
  const message =
    thrown instanceof ProviderError ? thrown.message : `the model request failed: ${networkCause(thrown)}`;
  return new ProviderError(code, bound(redactSecrets(message, secrets)));
}

/** Replaces every occurrence of each secret, as sent or in any mix of URL-encoding and JSON escapes. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let redacted = text;
  // Longest first, so a secret that contains another is replaced whole.
  for (const secret of [...secrets].filter((s) => s !== '').sort((left, right) => right.length - left.length)) {
    redacted = redacted.replace(secretPattern(secret), REDACTED);
  }
  return redacted;
}

/**
 * One character of a secret may come back literally, percent-encoded (either hex case, `+` for a space),
 * as a JSON escape (`\"`, `\\`, `\/`), or as a `\uXXXX` escape (Go's encoder writes `&<>` that way).
 */
function secretPattern(secret: string): RegExp {
  const characters = Array.from(secret, (character) => {
    const forms = [escapeRegExp(character), percentEncoded(character)];
    if (character === ' ') forms.push('\\+');
    if (character === '"' || character === '\\' || character === '/') forms.push(`\\\\${escapeRegExp(character)}`);
    forms.push(unicodeEscaped(character));
    return `(?:${forms.join('|')})`;
  });
  return new RegExp(characters.join(''), 'g');
}

function percentEncoded(character: string): string {
  return [...new TextEncoder().encode(character)].map((byte) => `%${caseless(hex(byte, 2))}`).join('');
}

function unicodeEscaped(character: string): string {
  // An astral character is two UTF-16 units, each escaped on its own.
  return Array.from({ length: character.length }, (_, index) => {
    return `\\\\u${caseless(hex(character.charCodeAt(index), 4))}`;
  }).join('');
}

function hex(value: number, digits: number): string {
  return value.toString(16).toUpperCase().padStart(digits, '0');
}

/** `2F` → `2[Ff]`: servers differ in the case of their hex digits. */
function caseless(digits: string): string {
  return digits.replace(/[A-F]/g, (digit) => `[${digit}${digit.toLowerCase()}]`);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

function bound(text: string): string {
  return text.length <= MAX_PROVIDER_MESSAGE_LENGTH ? text : `${text.slice(0, MAX_PROVIDER_MESSAGE_LENGTH)}…`;
}
