import type { FuzzFrame, FuzzKind, FuzzTargets } from './fuzz-frame';
import { hostileCallFrame } from './hostile-calls';
import {
  deepNesting,
  firstFrame,
  hugeIds,
  malformedJson,
  oversize,
  randomBytes,
  unknownMethods,
  wrongTypes,
} from './malformed-frames';
import { SeededRandom } from './seeded-random';

/**
 * How often each kind comes: mostly well-formed hostile frames, which reach the deepest code; oversize frames
 * (megabytes each, one in ten above the limit) and first frames (a new connection each) rarely.
 */
export const FUZZ_WEIGHTS: Readonly<Record<FuzzKind, number>> = {
  malformed_json: 14,
  wrong_types: 14,
  huge_ids: 8,
  deep_nesting: 3,
  unknown_methods: 12,
  oversize: 0.05,
  random_bytes: 10,
  hostile_valid: 36,
  first_frame: 1,
};

/** The frames of one seed, in order: the same seed and targets give the same frames, byte for byte. */
export function createFrameGenerator(seed: number, targets: FuzzTargets): () => FuzzFrame {
  if (targets.methods.length === 0 || targets.services.length === 0)
    throw new Error('The fuzzer needs at least one method and one service to aim at');
  const random = new SeededRandom(seed);
  let id = 0;
  const nextId = () => ++id;
  const text = (kind: FuzzKind, data: string, first = false): FuzzFrame => ({ kind, first, data, binary: false });
  return () => {
    const kind = random.weighted(FUZZ_WEIGHTS);
    switch (kind) {
      case 'malformed_json':
        return text(kind, malformedJson(random, targets, nextId()));
      case 'wrong_types':
        return text(kind, wrongTypes(random, targets, nextId()));
      case 'huge_ids':
        return text(kind, hugeIds(random, targets));
      case 'deep_nesting':
        return text(kind, deepNesting(random, targets, nextId()));
      case 'unknown_methods':
        return text(kind, unknownMethods(random, nextId()));
      case 'oversize':
        return text(kind, oversize(random, targets, nextId()));
      case 'random_bytes':
        return { kind, first: false, ...randomBytes(random) };
      case 'hostile_valid':
        return text(kind, hostileCallFrame(random, targets, nextId));
      case 'first_frame':
        return text(kind, firstFrame(random, targets, nextId()), true);
    }
  };
}
