import type { JsonObject } from '@pi/plugin-api';
import { displayLine } from './display-text';

/** A string argument of a call, shown safely; '' when the model sent something else (arguments are the model's). */
export function textArgument(args: JsonObject, name: string): string {
  const value = args[name];
  return typeof value === 'string' ? displayLine(value) : '';
}

/** A whole-number argument of a call, or undefined. */
export function numberArgument(args: JsonObject, name: string): number | undefined {
  const value = args[name];
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}
