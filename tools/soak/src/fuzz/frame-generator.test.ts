import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { FUZZ_KINDS, type FuzzFrame } from './fuzz-frame';
import { createFrameGenerator } from './frame-generator';
import { MAX_PAYLOAD_BYTES, deepNesting, oversize } from './malformed-frames';
import { SeededRandom } from './seeded-random';

const TARGETS = { methods: ['chat.prompt', 'models.refresh', 'session-picker.create'], services: ['chat', 'models'] };

/** The frames of a seed as kind + digest, so long runs compare without holding megabytes of frames. */
function fingerprints(seed: number, count: number): string[] {
  const next = createFrameGenerator(seed, TARGETS);
  return Array.from({ length: count }, () => {
    const frame = next();
    return `${frame.kind}:${frame.first}:${frame.binary}:${createHash('sha1').update(frame.data).digest('hex')}`;
  });
}

function framesOf(seed: number, count: number, keep: (frame: FuzzFrame) => boolean): FuzzFrame[] {
  const next = createFrameGenerator(seed, TARGETS);
  const kept: FuzzFrame[] = [];
  for (let index = 0; index < count; index++) {
    const frame = next();
    if (keep(frame)) kept.push(frame);
  }
  return kept;
}

// Megabytes of frames are built here: generous on a shared two-core machine (never a measured duration).
describe('the fuzzer frame generator', { timeout: 60_000 }, () => {
  it('gives the same frames, byte for byte, for the same seed', () => {
    expect(fingerprints(42, 3_000)).toEqual(fingerprints(42, 3_000));
  });

  it('gives other frames for another seed', () => {
    const [a, b] = [fingerprints(1, 200), fingerprints(2, 200)];
    expect(a.filter((frame, index) => frame === b[index]).length).toBeLessThan(20);
  });

  it('sends every kind within 20,000 frames', () => {
    const kinds = new Set(framesOf(3, 20_000, () => true).map((frame) => frame.kind));
    expect([...kinds].sort()).toEqual([...FUZZ_KINDS].sort());
  });

  it('writes well-formed hostile frames as JSON protocol messages', () => {
    const messages = framesOf(4, 5_000, (frame) => frame.kind === 'hostile_valid').flatMap((frame) => {
      const parsed: unknown = JSON.parse(frame.data as string);
      return Array.isArray(parsed) ? parsed : [parsed];
    });
    expect(messages.length).toBeGreaterThan(1_000);
    for (const message of messages) {
      expect(message).toMatchObject({ method: expect.stringMatching(/^(mutation|subscription|subscription\.stop)$/) });
    }
  });

  it('makes some oversize frames pass the host limit and the rest megabytes under it', () => {
    const random = new SeededRandom(5);
    const sizes = Array.from({ length: 100 }, (_, id) => oversize(random, TARGETS, id).length);
    expect(sizes.some((size) => size > MAX_PAYLOAD_BYTES)).toBe(true);
    expect(sizes.some((size) => size < MAX_PAYLOAD_BYTES)).toBe(true);
    expect(Math.min(...sizes)).toBeGreaterThanOrEqual(256 * 1024);
  });

  it('nests deep frames up to 100,000 levels', () => {
    const random = new SeededRandom(6);
    const depths = Array.from({ length: 200 }, (_, id) => {
      const frame = deepNesting(random, TARGETS, id);
      return Math.max(frame.split('[').length, frame.split('{"a":').length) - 1;
    });
    expect(Math.max(...depths)).toBeGreaterThanOrEqual(100_000);
    expect(Math.min(...depths)).toBeLessThanOrEqual(1_000);
  });

  it('sends invalid UTF-8 as text, random bytes as binary, and first frames on a connection of their own', () => {
    const frames = framesOf(7, 10_000, (frame) => frame.kind === 'random_bytes' || frame.kind === 'first_frame');
    const invalidText = frames.filter((frame) => frame.data instanceof Uint8Array && !frame.binary);
    expect(invalidText.length).toBeGreaterThan(0);
    for (const frame of invalidText) {
      expect(() => new TextDecoder('utf-8', { fatal: true }).decode(frame.data as Uint8Array)).toThrow();
    }
    expect(frames.some((frame) => frame.binary)).toBe(true);
    expect(frames.filter((frame) => frame.kind === 'first_frame').every((frame) => frame.first)).toBe(true);
    expect(frames.filter((frame) => frame.kind === 'random_bytes').every((frame) => !frame.first)).toBe(true);
  });

  it('refuses targets with nothing to aim at', () => {
    expect(() => createFrameGenerator(1, { methods: [], services: ['chat'] })).toThrow(/at least one method/);
  });
});
