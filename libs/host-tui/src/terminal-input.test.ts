import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { InputEvent } from '@pi/terminal';
import { TerminalInput } from './terminal-input';

describe('terminal input', () => {
  it('reads nothing while handed over, and reads again once the other program returns the terminal', async () => {
    const stream = new PassThrough();
    const typed: string[] = [];
    const input = new TerminalInput(
      stream,
      (event: InputEvent) => void (event.type === 'key' && typed.push(event.name)),
      () => undefined,
    );
    stream.emit('data', 'a');
    let returned = false;
    await input.handOver(
      async () => {
        expect(input.handedOver).toBe(true);
        stream.emit('data', 'b');
      },
      () => (returned = true),
    );
    stream.emit('data', 'c');
    expect({ typed, returned, handedOver: input.handedOver }).toEqual({
      typed: ['a', 'c'],
      returned: true,
      handedOver: false,
    });
    input.dispose();
    stream.emit('data', 'd');
    expect(typed).toEqual(['a', 'c']);
  });

  it('a terminal disposed while handed over is not read again', async () => {
    const stream = new PassThrough();
    const input = new TerminalInput(
      stream,
      () => undefined,
      () => undefined,
    );
    let returned = false;
    await input.handOver(
      async () => input.dispose(),
      () => (returned = true),
    );
    expect({ returned, listeners: stream.listenerCount('data') }).toEqual({ returned: false, listeners: 0 });
  });
});
