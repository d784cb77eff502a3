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
