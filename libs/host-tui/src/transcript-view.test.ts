import { describe, expect, it } from 'vitest';
import type { TuiComponent } from '@pi/plugin-api';
import { TranscriptView } from './transcript-view';

/** A block of `count` numbered lines that counts how often it was rendered. */
function block(name: string, count = 1): TuiComponent & { renders: number } {
  const component = {
    renders: 0,
    render(width: number) {
      component.renders += 1;
      return Array.from({ length: count }, (_, index) => `${name}:${index}`.slice(0, width));
    },
  };
  return component;
}

describe('the transcript view', () => {
  it('shows the end of the transcript and follows what is appended', () => {
    const view = new TranscriptView();
    view.upsert('a', block('a', 3));
    view.upsert('b', block('b', 2));
    expect(view.viewport(20, 3).lines).toEqual(['a:2', 'b:0', 'b:1']);
    view.upsert('c', block('c'));
    expect(view.viewport(20, 3).lines).toEqual(['b:0', 'b:1', 'c:0']);
  });

  it('replaces a block in place, keeping its position', () => {
    const view = new TranscriptView();
    view.upsert('a', block('a'));
    view.upsert('b', block('b'));
    view.upsert('a', block('A'));
    expect(view.viewport(20, 5).lines).toEqual(['A:0', 'b:0']);
  });

  it('scrolling up pauses following; new output does not move the view; scrollToEnd follows again', () => {
    const view = new TranscriptView();
    for (let index = 0; index < 10; index++) view.upsert(`e${index}`, block(`e${index}`));
    view.scroll(4, 3, 20);
    expect(view.following).toBe(false);
    expect(view.viewport(20, 3).lines).toEqual(['e3:0', 'e4:0', 'e5:0']);
    view.upsert('e10', block('e10'));
    expect(view.viewport(20, 3).lines).toEqual(['e4:0', 'e5:0', 'e6:0']);
    view.scrollToEnd();
    expect(view.viewport(20, 3).lines).toEqual(['e8:0', 'e9:0', 'e10:0']);
  });

  it('never scrolls past the top or below the end', () => {
    const view = new TranscriptView();
    view.upsert('a', block('a', 4));
    view.scroll(100, 3, 20);
    expect(view.viewport(20, 3).lines).toEqual(['a:0', 'a:1', 'a:2']);
    view.scroll(-100, 3, 20);
    expect(view.following).toBe(true);
  });

  it('a frame of a 5,000-entry transcript renders only the blocks in view, once per width', () => {
    const view = new TranscriptView();
    const blocks = Array.from({ length: 5000 }, (_, index) => block(`e${index}`));
    blocks.forEach((component, index) => view.upsert(`e${index}`, component));
    view.viewport(40, 10);
    view.viewport(40, 10);
    expect(blocks.filter((component) => component.renders > 0)).toHaveLength(10);
    expect(blocks.at(-1)?.renders).toBe(1);
    view.viewport(30, 10);
    expect(blocks.at(-1)?.renders).toBe(2);
  });

  it('a block that throws shows a placeholder instead of breaking the transcript', () => {
    const failures: string[] = [];
    const view = new TranscriptView((key, message) => failures.push(`${key}: ${message}`));
    view.upsert('bad', {
      render: () => {
        throw new Error('nope');
      },
    });
    view.upsert('good', block('good'));
    expect(view.viewport(40, 5).lines).toEqual(['[this entry could not be rendered]', 'good:0']);
    expect(failures).toEqual(['bad: nope']);
  });
});

describe('the transcript viewport', () => {
  it('shows the lines a copy of the whole transcript would, at every scroll offset and height', () => {
    // Transcripts of up to 8 blocks of 0–5 lines each, drawn from a fixed sequence (blocks may be empty).
    let seed = 7;
    const next = (below: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % below;
    for (let round = 0; round < 200; round++) {
      const counts = Array.from({ length: next(9) }, () => next(6));
      const all = counts.flatMap((count, index) => Array.from({ length: count }, (_, line) => `b${index}:${line}`));
      for (let height = 0; height <= 8; height++)
        for (let up = 0; up <= all.length + 1; up++) {
          const view = new TranscriptView();
          counts.forEach((count, index) => view.upsert(`b${index}`, block(`b${index}`, count)));
          view.scroll(up, height, 20);
          const viewport = view.viewport(20, height);
          const end = Math.max(0, all.length - viewport.below);
          expect(viewport.lines).toEqual(all.slice(Math.max(0, end - height), end));
        }
    }
  });
});
