import { describe, expect, it } from 'vitest';
import { bodyWithoutNotice, withNotice } from './result-notice';

describe('result notices', () => {
  it('end the text after a blank line, and come off again for renderers', () => {
    const text = withNotice('a\nb', '[Showing lines 1-2 of 9. Use offset=3 to continue.]');
    expect(text).toBe('a\nb\n\n[Showing lines 1-2 of 9. Use offset=3 to continue.]');
    expect(bodyWithoutNotice(text, '[Showing lines 1-2 of 9. Use offset=3 to continue.]')).toBe('a\nb');
  });

  it('stand alone when the body is empty, and leave a text without them as it is', () => {
    expect(withNotice('', '[empty file]')).toBe('[empty file]');
    expect(bodyWithoutNotice('[empty file]', '[empty file]')).toBe('');
    expect(withNotice('body', null)).toBe('body');
    expect(bodyWithoutNotice('body', '[other]')).toBe('body');
  });
});
