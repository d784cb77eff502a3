import { describe, expect, it } from 'vitest';
import { splitFrontmatter } from './frontmatter';

describe('splitFrontmatter', () => {
  it('reads a YAML block at the start and returns the text after it', () => {
    const split = splitFrontmatter('---\nname: pdf\ndescription: >\n  Reads PDFs\n  and forms.\n---\n# Body\n');
    expect(split._unsafeUnwrap()).toEqual({
      frontmatter: { name: 'pdf', description: 'Reads PDFs and forms.\n' },
      body: '# Body\n',
    });
  });

  it('has no frontmatter when the file does not start with ---', () => {
    expect(splitFrontmatter('Review the code.\n---\n')._unsafeUnwrap()).toEqual({
      frontmatter: null,
      body: 'Review the code.\n---\n',
    });
  });

  it('takes an empty block as no keys, and a byte order mark before it', () => {
    expect(splitFrontmatter('\uFEFF---\n---\nText')._unsafeUnwrap()).toEqual({ frontmatter: {}, body: 'Text' });
  });

  it('refuses a block that is not closed, not YAML, or not a mapping, in a sentence', () => {
    expect(splitFrontmatter('---\nname: a\n')._unsafeUnwrapErr()).toBe('its frontmatter has no closing ---');
    expect(splitFrontmatter('---\nname: [a\n---\n')._unsafeUnwrapErr()).toMatch(/^its frontmatter is not valid YAML/);
    expect(splitFrontmatter('---\n- a\n- b\n---\n')._unsafeUnwrapErr()).toBe(
      'its frontmatter is not a mapping of keys to values',
    );
  });
});
