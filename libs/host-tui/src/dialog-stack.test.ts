import { describe, expect, it } from 'vitest';
import type { InputEvent, KeyEvent } from '@pi/terminal';
import { DIALOG_ARMING_MS, confirmDialog } from './dialogs';
import { DialogStack } from './dialog-stack';

const key = (name: string, text?: string): KeyEvent => ({
  type: 'key',
  name,
  ctrl: false,
  alt: false,
  shift: false,
  sequence: text ?? name,
  ...(text === undefined ? {} : { text }),
});

function stack() {
  let time = 0;
  const dialogs = new DialogStack(
    () => time,
    () => undefined,
  );
  return { dialogs, advance: (ms: number) => (time += ms) };
}

describe('dialog stack', () => {
  it('the newest dialog takes the keys; when it settles, the one it covered is back', async () => {
    const { dialogs, advance } = stack();
    const first = dialogs.facilities().confirm('First', 'sure?');
    const outer = dialogs.current;
    const second = dialogs.facilities().confirm('Second', 'sure?');
    expect(dialogs.current).not.toBe(outer);
    advance(DIALOG_ARMING_MS);
    dialogs.handleInput(key('y', 'y'), () => undefined);
    await expect(second).resolves.toBe(true);
    expect(dialogs.current).toBe(outer);
    dialogs.handleInput(key('n', 'n'), () => undefined);
    await expect(first).resolves.toBe(false);
    expect(dialogs.current).toBeUndefined();
  });

  it('what is typed before a dialog is armed also goes to the editor; after, only to the dialog', () => {
    const { dialogs, advance } = stack();
    void dialogs.open((settle) => confirmDialog('T', 'm', 0, settle), false);
    const typedBefore: InputEvent[] = [];
    dialogs.handleInput(key('a', 'a'), (event) => typedBefore.push(event));
    advance(DIALOG_ARMING_MS);
    dialogs.handleInput(key('b', 'b'), (event) => typedBefore.push(event));
    expect(typedBefore).toEqual([key('a', 'a')]);
  });

  it('without a dialog the input is not taken; an aborted signal answers the cancelled value', async () => {
    const { dialogs } = stack();
    expect(dialogs.handleInput(key('a', 'a'), () => undefined)).toBe(false);
    const controller = new AbortController();
    const answer = dialogs.facilities().select('Pick', ['a', 'b'], { signal: controller.signal });
    controller.abort();
    await expect(answer).resolves.toBeUndefined();
    expect(dialogs.current).toBeUndefined();
    await expect(dialogs.facilities().confirm('T', 'm', { signal: controller.signal })).resolves.toBe(false);
  });
});
