import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TEST_SESSION_TOKEN } from '@pi/host-session/testing';
import { TRANSPORTS, openRawChannel, remoteErrorOf, serveHost, type HostTransport } from '@pi/test-support';
import { startModelsHost, type ModelsHost } from './testing/models-host';

/** Well above a normal frame, well below the error of a 1 MB id echoed even once. */
const SMALL_FRAME_BYTES = 4096;

describe.each(TRANSPORTS)('models.select with a huge model id over %s', (kind) => {
  let host: ModelsHost;
  let transport: HostTransport;

  beforeEach(async () => {
    host = await startModelsHost({ transport: 'loopback' });
    transport = await serveHost(kind, host.fixture.host.rpc);
  });

  afterEach(async () => {
    await transport.close();
    await host.close();
  });

  // A client's own copy of the contract refuses these before sending; a forged call is what reaches a host.
  it.each([
    ['1 MB', 1_000_000],
    ['15 MB', 15_000_000],
  ])('answers a %s id with invalid_argument in a small frame', async (_label, length) => {
    using raw = await openRawChannel(transport.socketFactory, { token: TEST_SESSION_TOKEN });
    const before = transport.frames.received.length;
    const error = await remoteErrorOf(
      raw.mutate('models.select', { a: [{ provider: 'offline', modelId: 'm'.repeat(length) }], c: '1' }),
    );
    expect(error.code).toBe('invalid_argument');
    const answers = transport.frames.received.slice(before);
    expect(answers).toHaveLength(1);
    expect(Buffer.byteLength(answers[0] ?? '')).toBeLessThan(SMALL_FRAME_BYTES);
  });
});
