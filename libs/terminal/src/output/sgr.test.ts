import { describe, expect, it } from 'vitest';
import { bold, colorParameters, createStyler, fg } from './sgr';
import { darkTheme } from './theme';

describe('sgr helpers', () => {
  it('close only what they open', () => {
    expect(bold('x')).toBe('\x1b[1mx\x1b[22m');
    expect(fg(1, 'x')).toBe('\x1b[31mx\x1b[39m');
  });

  it('nest: an inner colour hands back to the outer one', () => {
    expect(fg(1, `a${fg(2, 'b')}c`)).toBe('\x1b[31ma\x1b[32mb\x1b[39m\x1b[31mc\x1b[39m');
  });

  it('leave empty text empty', () => {
    expect(bold('')).toBe('');
  });

  it.each([
    [3, 'truecolor', '33'],
    [9, 'truecolor', '91'],
    [200, '256', '38;5;200'],
    ['#ff0000', 'truecolor', '38;2;255;0;0'],
    ['#ff0000', '256', '38;5;196'],
    ['#ff0000', '16', '91'],
    ['#ff0000', 'none', ''],
    ['default', 'truecolor', '39'],
  ] as const)('colour %j at level %s is %j', (color, level, params) => {
    expect(colorParameters(color, 'fg', level)).toBe(params);
  });
});

describe('styler', () => {
  it('paints a named style from the theme', () => {
    const styler = createStyler(darkTheme);
    expect(styler.paint('toolTitle', 'bash')).toBe('\x1b[1m\x1b[36mbash\x1b[39m\x1b[22m');
    expect(styler.paint('text', 'plain')).toBe('plain');
  });

  it('drops colours but keeps emphasis at level none (NO_COLOR)', () => {
    expect(createStyler(darkTheme, 'none').paint('toolTitle', 'bash')).toBe('\x1b[1mbash\x1b[22m');
  });
});
