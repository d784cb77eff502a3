import { describe, expect, it } from 'vitest';
import type { TuiTheme } from '@pi/plugin-api';
import { composeFrame, type FrameInput } from './frame';
import { SlotRegistry } from './slot-registry';
import { TranscriptView } from './transcript-view';

const plain: TuiTheme = { fg: (_color, text) => text, bold: (text) => text };

function frameWithWelcome(welcome: readonly string[], height: number, overlay: readonly string[] = []): string[] {
  const slots = new SlotRegistry(() => undefined);
  slots.add('host', 'welcome', { render: () => [...welcome] });
  const input: FrameInput = {
    width: 40,
    height,
    theme: plain,
    slots,
    transcript: new TranscriptView(),
    editor: { lines: [''], cursor: { row: 0, col: 0 } },
    dialog: undefined,
    overlay,
    notices: [],
    connection: { status: 'connected', epoch: 1 },
    label: 'here',
    hint: '',
    completions: [],
    fit: (line) => line,
  };
  return composeFrame(input).lines;
}

describe('the frame of an empty session', () => {
  it('shows the welcome just above the editor when it fits', () => {
    const lines = frameWithWelcome(['Welcome.', 'Second line.'], 10);
    expect(lines.indexOf('Second line.')).toBe(lines.indexOf('─'.repeat(40)) - 1);
    expect(lines[0]).toBe('');
  });

  it('keeps the start of a welcome taller than the room: the greeting first, later hints cut', () => {
    const welcome = Array.from({ length: 12 }, (_, index) => `line ${index}`);
    const lines = frameWithWelcome(welcome, 10);
    expect(lines[0]).toBe('line 0');
    expect(lines).not.toContain('line 11');
  });
});

describe('the overlay', () => {
  it('is drawn over the end of the transcript area, above the editor', () => {
    const lines = frameWithWelcome(['Welcome.', 'Middle line.', 'Second line.'], 10, ['over 1', 'over 2']);
    expect(lines.indexOf('over 2')).toBe(lines.indexOf('─'.repeat(40)) - 1);
    expect(lines.indexOf('over 1')).toBe(lines.indexOf('over 2') - 1);
    expect(lines).not.toContain('Second line.');
    expect(lines).not.toContain('Middle line.');
    expect(lines).toContain('Welcome.');
  });
});

describe('the whole frame', () => {
  it('stacks header, transcript (scrolled, under an overlay), dialog, status and notices, the editor and the footer', () => {
    const slots = new SlotRegistry(() => undefined);
    slots.add('host', 'header', { render: () => ['head'] });
    slots.add('host', 'status', { render: () => ['busy'] });
    slots.add('host', 'editor.above', { render: () => ['queued'] });
    slots.add('host', 'editor.below', { render: () => ['below'] });
    slots.add('host', 'footer', { render: () => ['foot'] });
    const transcript = new TranscriptView();
    for (let index = 0; index < 30; index++) transcript.upsert(`e${index}`, { render: () => [`entry ${index}`] });
    transcript.scroll(3, 6, 20);
    const editor = Array.from({ length: 12 }, (_, index) => `edit ${index}`);
    const frame = composeFrame({
      width: 20,
      height: 30,
      theme: plain,
      slots,
      transcript,
      editor: { lines: editor, cursor: { row: 11, col: 4 } },
      dialog: ['pick one'],
      overlay: ['over'],
      notices: [{ text: 'saved', level: 'info' }],
      connection: { status: 'connected', epoch: 1 },
      label: 'here',
      hint: 'keys',
      completions: ['/model'],
      fit: (line, width) => line.slice(0, width),
    });
    const rule = '─'.repeat(20);
    // Eight rows for the transcript, three lines up from its end; the overlay covers the "more lines" row.
    const region = ['entry 19', 'entry 20', 'entry 21', 'entry 22', 'entry 23', 'entry 24', 'entry 25', 'over'];
    expect(frame.lines).toEqual([
      'head',
      ...region,
      rule,
      'pick one',
      'busy',
      'saved',
      '/model',
      'queued',
      rule,
      ...editor.slice(2),
      rule,
      'below',
      '● connected  here  k',
      'foot',
    ]);
    expect(frame.cursor).toEqual({ row: 25, col: 4 });
  });
});
