import { createInputDecoder, type InputDecoder, type InputEvent } from '@pi/terminal';

/**
 * The terminal's keys and pastes, decoded into events, until disposed; `handOver` lends the terminal to another
 * program (an external editor) and reads nothing meanwhile.
 */
export class TerminalInput {
  readonly #input: NodeJS.ReadableStream;
  readonly #decoder: InputDecoder;
  readonly #onData: (chunk: Buffer | string) => void;
  #handedOver = false;
  #disposed = false;

  /** `afterInput` runs after every chunk is handled. */
  constructor(input: NodeJS.ReadableStream, onEvent: (event: InputEvent) => void, afterInput: () => void) {
    this.#input = input;
    this.#decoder = createInputDecoder({ onEvent });
    this.#onData = (chunk) => {
      this.#decoder.feed(typeof chunk === 'string' ? chunk : new Uint8Array(chunk));
      afterInput();
    };
    input.on('data', this.#onData);
  }

  /** While another program has the terminal: no keys are read (and the host paints nothing). */
  get handedOver(): boolean {
    return this.#handedOver;
  }

  /**
   * Runs `use` with the terminal's input unread; once it settles the input is read again and `returned` runs, unless
   * disposed meanwhile. One at a time: the caller checks `handedOver`.
   */
  async handOver(use: () => Promise<void>, returned: () => void): Promise<void> {
    this.#handedOver = true;
    this.#input.off('data', this.#onData);
    try {
      await use();
    } finally {
      this.#handedOver = false;
      if (!this.#disposed) {
        this.#input.on('data', this.#onData);
        returned();
      }
    }
  }

  dispose(): void {
    this.#disposed = true;
    this.#input.off('data', this.#onData);
    this.#decoder.dispose();
  }
}
