import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  Catalog,
  Probe,
  TRANSPORTS,
  createCatalog,
  createProbe,
  openRawChannel,
  remoteErrorOf,
  serveHost,
  startRpcFixture,
  type HostTransport,
  type RawChannel,
  type RpcFixture,
} from '@pi/test-support';

/** Well above a normal error frame, far below one that echoes a 1 MB input even once. */
const SMALL_FRAME_BYTES = 4096;
const MB = 1_000_000;

describe.each(TRANSPORTS)('error frames stay small whatever the input echoed over %s', (kind) => {
  let fixture: RpcFixture;
  let served: HostTransport;
  let raw: RawChannel;

  beforeEach(async () => {
    fixture = await startRpcFixture(kind, {
      provide: (registry) => {
        registry.provide(Catalog, createCatalog());
        registry.provide(Probe, createProbe());
      },
    });
    // Forged calls, which a client's own copy of the contract would refuse to send, on a socket whose frames are kept.
    served = await serveHost(kind, fixture.host);
    raw = await openRawChannel(served.socketFactory);
  });
  afterEach(async () => {
    raw.close();
    await served.close();
    await fixture.close();
  });

  /** The one frame answering `call`, which must fail with `code`. */
  async function answerTo(call: () => Promise<unknown>, code: string): Promise<string> {
    const before = served.frames.received.length;
    expect((await remoteErrorOf(call())).code).toBe(code);
    const answers = served.frames.received.slice(before);
    expect(answers).toHaveLength(1);
    return answers[0] ?? '';
  }

  it('a service message quoting a 15 MB argument is cut', async () => {
    const frame = await answerTo(
      () => raw.mutate('catalog.select', { a: [{ provider: 'local', modelId: 'm'.repeat(15 * MB) }], c: '1' }),
      'unknown_model',
    );
    expect(Buffer.byteLength(frame)).toBeLessThan(SMALL_FRAME_BYTES);
  });

  it('an unknown member or service with a 1 MB name is quoted cut', async () => {
    const member = await answerTo(() => raw.mutate(`catalog.${'x'.repeat(MB)}`, { a: [], c: '1' }), 'unknown_member');
    expect(Buffer.byteLength(member)).toBeLessThan(SMALL_FRAME_BYTES);
    const service = await answerTo(() => raw.mutate(`${'s'.repeat(MB)}.select`, { a: [], c: '2' }), 'unknown_service');
    expect(Buffer.byteLength(service)).toBeLessThan(SMALL_FRAME_BYTES);
  });

  it('a JSON violation under a 1 MB key names a cut path', async () => {
    const frame = await answerTo(
      () => raw.mutate('probe.echo', { a: [{ ['k'.repeat(MB)]: { constructor: 1 } }], c: '1' }),
      'invalid_argument',
    );
    expect(Buffer.byteLength(frame)).toBeLessThan(SMALL_FRAME_BYTES);
  });
});
