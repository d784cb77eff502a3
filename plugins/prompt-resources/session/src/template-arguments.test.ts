import { describe, expect, it } from 'vitest';
import { applyArguments, hasPlaceholders, splitArguments } from './template-arguments';

describe('template arguments', () => {
  it('splits at whitespace and keeps quoted words whole, without their quotes', () => {
    expect(splitArguments(`Button "onClick handler"  'it''s' x`)).toEqual(['Button', 'onClick handler', 'its', 'x']);
    expect(splitArguments('  ')).toEqual([]);
    expect(splitArguments('""')).toEqual(['']);
  });

  it('replaces $1, $2, $@ and $ARGUMENTS; a missing argument is empty', () => {
    expect(applyArguments('Create $1 with $2 ($3).', 'Button "click handler"')).toBe(
      'Create Button with click handler ().',
    );
    expect(applyArguments('All: $@ / $ARGUMENTS', 'a b')).toBe('All: a b / a b');
  });

  it('takes ${@:N} and ${@:N:L} as bash does', () => {
    expect(applyArguments('${@:2}', 'a b c d')).toBe('b c d');
    expect(applyArguments('${@:2:2}', 'a b c d')).toBe('b c');
    expect(applyArguments('[${@:9}]', 'a b')).toBe('[]');
  });

  it('does not expand placeholders inside an argument', () => {
    expect(applyArguments('$1 and $2', '$2 x')).toBe('$2 and x');
  });

  it('puts the arguments after a template without placeholders, and leaves it alone without arguments', () => {
    expect(applyArguments('Review the staged changes.', 'only the parser')).toBe(
      'Review the staged changes.\n\nonly the parser',
    );
    expect(applyArguments('Review the staged changes.', '')).toBe('Review the staged changes.');
  });

  it('says whether a template takes arguments', () => {
    expect(hasPlaceholders('Fix $1')).toBe(true);
    expect(hasPlaceholders('Use ${@:2}')).toBe(true);
    expect(hasPlaceholders('Costs $ 5, or $a')).toBe(false);
  });
});
