import type { FuzzTargets } from './fuzz-frame';
import { hostileId, hostileJson } from './hostile-json';
import type { SeededRandom } from './seeded-random';

/** The host's frame limit (`DEFAULT_MAX_PAYLOAD` of @pi/transport-trpc, 16 MiB): an oversize frame passes it. */
export const MAX_PAYLOAD_BYTES = 16 * 1024 * 1024;

/** An ordinary call frame, the raw material that malformed frames are cut from. */
function callFrame(random: SeededRandom, targets: FuzzTargets, id: number): string {
  return JSON.stringify({
    id,
    method: 'mutation',
    params: { path: random.pick(targets.methods), input: { json: { a: [], c: `c${id}`, t: {} } } },
  });
}

export function malformedJson(random: SeededRandom, targets: FuzzTargets, id: number): string {
  const valid = callFrame(random, targets, id);
  switch (random.int(8)) {
    case 0:
      return valid.slice(0, random.int(valid.length));
    case 1: {
      const at = random.int(valid.length);
      return valid.slice(0, at) + random.pick(['{', '}', '[', ']', '"', ',', ':', '\\', '\u0000']) + valid.slice(at);
    }
    case 2:
      return valid.replace(/"/g, "'");
    case 3:
      return `${valid.slice(0, -1)},}`;
    case 4:
      return `\uFEFF${valid}`;
    case 5:
      return random.pick(['', ' ', 'null', 'NaN', 'undefined', '{', '[', '"', '/* */ {}', 'PONG ', 'ping']);
    case 6:
      return `${valid}${valid}`;
    default:
      return `{"id":${id},"method":"mutation","params":{"path":"x","input":{"json":${'['.repeat(random.between(1, 50))}}}}`;
  }
}

export function wrongTypes(random: SeededRandom, targets: FuzzTargets, id: number): string {
  const path = JSON.stringify(random.pick(targets.methods));
  const wrong = () => random.pick(['1', 'null', 'true', '[]', '{}', '"x"', hostileJson(random)]);
  switch (random.int(6)) {
    case 0:
      return `{"id":${id},"method":${wrong()},"params":{"path":${path},"input":{"json":{"a":[],"c":"x","t":{}}}}}`;
    case 1:
      return `{"id":${id},"method":"mutation","params":${wrong()}}`;
    case 2:
      return `{"id":${id},"method":"mutation","params":{"path":${wrong()},"input":{"json":{}}}}`;
    case 3:
      return `{"id":${id},"method":"mutation","params":{"path":${path},"input":${wrong()}}}`;
    case 4:
      return `{"id":${id},"method":"mutation","params":{"path":${path},"input":{"json":{"a":${wrong()},"c":${wrong()},"t":${wrong()}}}}}`;
    default:
      return random.pick(['1', '"x"', 'null', 'true', '[]', '[1,2]', '[null]', '{}']);
  }
}

export function hugeIds(random: SeededRandom, targets: FuzzTargets): string {
  let id = hostileId(random, 0);
  while (id === '0') id = hostileId(random, 0);
  return random.chance(0.3)
    ? `{"id":${id},"method":"subscription.stop"}`
    : `{"id":${id},"method":"mutation","params":{"path":${JSON.stringify(random.pick(targets.methods))},"input":{"json":{"a":[],"c":"h","t":{}}}}}`;
}

export function deepNesting(random: SeededRandom, targets: FuzzTargets, id: number): string {
  // Mostly depths a recursive walk survives, sometimes one it does not; 100,000 levels is 500 KB a frame.
  const depth = random.chance(0.05) ? 100_000 : random.pick([100, 1_000, 10_000]);
  const [open, close] = random.chance(0.5) ? ['[', ']'] : ['{"a":', '}'];
  const nested = `${open.repeat(depth)}0${close.repeat(depth)}`;
  switch (random.int(3)) {
    case 0:
      return nested;
    case 1:
      return `{"id":${id},"method":"mutation","params":{"path":${JSON.stringify(random.pick(targets.methods))},"input":{"json":{"a":[${nested}],"c":"d${id}","t":{}}}}}`;
    default:
      return `{"id":${id},"method":"subscription","params":{"path":"$rpc.interactions","input":{"json":{"ids":${nested}}}}}`;
  }
}

export function unknownMethods(random: SeededRandom, id: number): string {
  if (random.chance(0.4)) {
    const method = random.pick([
      '"query"',
      '"foo"',
      '""',
      '"MUTATION"',
      '"__proto__"',
      '"connectionParams"',
      '"subscription.start"',
    ]);
    return `{"id":${id},"method":${method},"params":{"path":"$rpc.hello"}}`;
  }
  const path = random.pick([
    'nope.nope',
    '$rpc.nope',
    'chat.nope',
    'chat.$watch.x',
    '__proto__.toString',
    'constructor.constructor',
    'toString',
    '',
    '.',
    'a'.repeat(10_000),
  ]);
  return `{"id":${id},"method":${random.pick(['"mutation"', '"subscription"'])},"params":{"path":${JSON.stringify(path)},"input":{"json":{"a":[],"c":"u","t":{}}}}}`;
}

/** A frame above the host's limit (the socket is closed with 1009), or a large one under it. */
export function oversize(random: SeededRandom, targets: FuzzTargets, id: number): string {
  const size = random.chance(0.1) ? MAX_PAYLOAD_BYTES + random.between(1, 1024) : random.pick([256, 1024, 4096]) * 1024;
  const head = `{"id":${id},"method":"mutation","params":{"path":${JSON.stringify(random.pick(targets.methods))},"input":{"json":{"a":["`;
  const tail = `"],"c":"o${id}","t":{}}}}}`;
  return head + 'x'.repeat(Math.max(0, size - head.length - tail.length)) + tail;
}

/** Random bytes: a binary frame, or a text frame that is not valid UTF-8 (`binary` false), or printable noise. */
export function randomBytes(random: SeededRandom): { data: string | Uint8Array; binary: boolean } {
  const length = random.pick([1, 16, 256, 4096]);
  switch (random.int(3)) {
    case 0:
      return { data: random.bytes(length), binary: true };
    case 1:
      return { data: Uint8Array.from([0xff, 0xfe, 0xc3, 0x28, ...random.bytes(length)]), binary: false };
    default:
      return {
        data: Array.from({ length }, () => String.fromCharCode(random.between(32, 126))).join(''),
        binary: false,
      };
  }
}

/** What a new connection sends where its connection params belong: never the real token. */
export function firstFrame(random: SeededRandom, targets: FuzzTargets, id: number): string {
  switch (random.int(4)) {
    case 0:
      return `{"method":"connectionParams","data":${random.pick(['null', '"x"', '[]', '{"token":1}', '{"token":"wrong"}', `{"token":"${'t'.repeat(100_000)}"}`, '{"__proto__":{"token":"x"}}', hostileJson(random)])}}`;
    case 1:
      return callFrame(random, targets, id);
    case 2:
      return random.pick(['PING', 'PONG', '', '{}']);
    default:
      return malformedJson(random, targets, id);
  }
}
