/*!
 * textColumns's rules are ported from string-width 8.3.0 (https://github.com/sindresorhus/string-width), under its
 * license: a legal comment, so bundles that carry the port carry the notice too.
 *
 * MIT License
 *
 * Copyright (c) Sindre Sorhus <sindresorhus@gmail.com> (https://sindresorhus.com)
 *
 * Permission is hereby granted, free of charge, to any person obtaining a copy of this software and associated
 * documentation files (the "Software"), to deal in the Software without restriction, including without limitation the
 * rights to use, copy, modify, merge, publish, distribute, sublicense, and/or sell copies of the Software, and to
 * permit persons to whom the Software is furnished to do so, subject to the following conditions:
 *
 * The above copyright notice and this permission notice shall be included in all copies or substantial portions of
 * the Software.
 *
 * THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING BUT NOT LIMITED TO THE
 * WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR
 * COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR
 * OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.
 */
import { eastAsianWidth } from 'get-east-asian-width';

/**
 * The columns a terminal gives text, by string-width 8.3.0's rules (MIT, notice above), for text as pi measures it:
 * escape sequences counted as the control characters they are (no columns), ambiguous characters narrow.
 *
 * Why a port and not the package: string-width compiles its regular expressions and an `Intl.Segmenter` when it is
 * imported, ~40 ms for `/^\p{RGI_Emoji}$/v` alone (V8 checks a regular expression literal where it parses the module,
 * even inside a function not yet called) and ~15 ms for the segmenter. pi-tui imports this library before its first
 * paint, whose text is ASCII and never asks; here each is built from a string at the first text past ASCII. The rules
 * are string-width's line for line, and a property test holds them equal to the package's (a dev dependency).
 */

interface Patterns {
  readonly segmenter: Intl.Segmenter;
  /** A printing character: what a cluster's width is taken from, past leading marks and format characters. */
  readonly visible: RegExp;
  readonly spacingMark: RegExp;
  readonly rgiEmoji: RegExp;
}

let patterns: Patterns | undefined;

function compiled(): Patterns {
  patterns ??= {
    segmenter: new Intl.Segmenter(undefined, { granularity: 'grapheme' }),
    // One negated class without a quantifier, as string-width has it: a repeated pattern backtracks exponentially.
    visible: new RegExp(
      '[^\\p{Default_Ignorable_Code_Point}\\p{Control}\\p{Format}\\p{Nonspacing_Mark}\\p{Enclosing_Mark}\\p{Surrogate}]',
      'v',
    ),
    spacingMark: new RegExp('\\p{Spacing_Mark}', 'v'),
    rgiEmoji: new RegExp('^\\p{RGI_Emoji}$', 'v'),
  };
  return patterns;
}

/** The grapheme segmenter, built at its first use (shared with the rest of the library). */
export function graphemeSegmenter(): Intl.Segmenter {
  return compiled().segmenter;
}

const PRINTABLE_ASCII = /^[\u0020-\u007e]*$/;
const UNQUALIFIED_KEYCAP = /^[\d#*]\u20e3$/;
const EXTENDED_PICTOGRAPHIC = /\p{Extended_Pictographic}/gu;
const NARROW = { ambiguousAsWide: false };

/** Columns of `text`: 0 for a control character, an escape sequence or a mark alone, 2 for an emoji or CJK. */
export function textColumns(text: string): number {
  if (text.length === 0) return 0;
  if (PRINTABLE_ASCII.test(text)) return text.length;
  const { segmenter, rgiEmoji } = compiled();
  let width = 0;
  for (const { segment } of segmenter.segment(text)) {
    const visible = baseVisible(segment);
    if (visible === undefined) continue;
    if (rgiEmoji.test(segment) || isDoubleWidthNonRgiEmojiSequence(segment)) {
      width += 2;
      continue;
    }
    const hangul = hangulClusterWidth(visible);
    if (hangul !== undefined) {
      width += hangul;
      continue;
    }
    // Everything else: the East Asian Width of the first visible scalar, plus trailing spacing and halfwidth marks.
    width += eastAsianWidth(visible.codePointAt(0) ?? 0, NARROW) + trailingWidth(visible);
  }
  return width;
}

/** A keycap without VS16, or a ZWJ sequence of two pictographs or more: emoji terminals draw two columns wide. */
function isDoubleWidthNonRgiEmojiSequence(segment: string): boolean {
  // Real emoji clusters are under 30 code units: a pathological one is not looked into.
  if (segment.length > 50) return false;
  if (UNQUALIFIED_KEYCAP.test(segment)) return true;
  if (!segment.includes('\u200d')) return false;
  return (segment.match(EXTENDED_PICTOGRAPHIC)?.length ?? 0) >= 2;
}

/** The cluster from its first visible character on, or undefined when none is visible. */
function baseVisible(segment: string): string | undefined {
  const index = segment.search(compiled().visible);
  return index === -1 ? undefined : segment.slice(index);
}

const isLeadingJamo = (code: number) => (code >= 0x1100 && code <= 0x115f) || (code >= 0xa960 && code <= 0xa97c);
const isVowelJamo = (code: number) => (code >= 0x1160 && code <= 0x11a7) || (code >= 0xd7b0 && code <= 0xd7c6);
const isTrailingJamo = (code: number) => (code >= 0x11a8 && code <= 0x11ff) || (code >= 0xd7cb && code <= 0xd7fb);
const isJamo = (code: number) => isLeadingJamo(code) || isVowelJamo(code) || isTrailingJamo(code);

/**
 * A cluster of conjoining Hangul jamo: each modern L+V or L+V+T syllable is one block of 2 columns; unmatched jamo
 * add up, as the terminals pi targets draw them. Undefined when the cluster does not start with a jamo.
 */
function hangulClusterWidth(visible: string): number | undefined {
  const pattern = compiled().visible;
  const codes: number[] = [];
  for (const character of visible) {
    if (pattern.test(character)) codes.push(character.codePointAt(0) ?? 0);
  }
  if (codes.length === 0) return undefined;
  let width = 0;
  for (let index = 0; index < codes.length; index += 1) {
    const code = codes[index] ?? 0;
    if (!isJamo(code)) {
      if (width === 0) return undefined;
      // A mixed cluster (a jamo, then a precomposed syllable): the rest by East Asian Width.
      for (const rest of codes.slice(index)) width += eastAsianWidth(rest, NARROW);
      return width;
    }
    if (isLeadingJamo(code) && isVowelJamo(codes[index + 1] ?? -1)) {
      width += 2;
      index += isTrailingJamo(codes[index + 2] ?? -1) ? 2 : 1;
      continue;
    }
    width += eastAsianWidth(code, NARROW);
  }
  return width;
}

/** Trailing spacing marks and Halfwidth/Fullwidth Forms in the cluster (ﾞ, ﾟ, ｰ) take columns of their own. */
function trailingWidth(visible: string): number {
  const { spacingMark } = compiled();
  let extra = 0;
  let first = true;
  for (const character of visible) {
    if (first) {
      first = false;
      continue;
    }
    if (spacingMark.test(character) || (character >= '\uff00' && character <= '\uffef')) {
      extra += eastAsianWidth(character.codePointAt(0) ?? 0, NARROW);
    }
  }
  return extra;
}
