import type { FuzzTargets } from './fuzz-frame';
import { hostileId, hostileJson } from './hostile-json';
import type { SeededRandom } from './seeded-random';

/**
 * Well-formed frames of the protocol (docs/protocol.md) that a hostile client may send: real paths with arguments
 * of the wrong shape, superjson `meta`, other connections' call ids to cancel, references that do not exist,
 * replies to interactions never asked, duplicate subscription ids, stops of streams never started.
 */
export function hostileCallFrame(random: SeededRandom, targets: FuzzTargets, nextId: () => number): string {
  if (random.chance(0.05)) {
    // A batch: tRPC accepts an array of messages in one frame.
    return `[${Array.from({ length: random.between(2, 20) }, () => hostileMessage(random, targets, nextId)).join(',')}]`;
  }
  return hostileMessage(random, targets, nextId);
}

function hostileMessage(random: SeededRandom, targets: FuzzTargets, nextId: () => number): string {
  const id = hostileId(random, nextId());
  const jsonrpc = random.chance(0.1) ? '"jsonrpc":"2.0",' : '';
  const mutation = (path: string, input: string) =>
    `{"id":${id},${jsonrpc}"method":"mutation","params":{"path":${JSON.stringify(path)},"input":${input}}}`;
  const subscription = (path: string, input: string | undefined) => {
    const lastEventId = random.chance(0.2)
      ? `,"lastEventId":${random.pick(['"1"', '"x"', '0', hostileJson(random)])}`
      : '';
    const inputField = input === undefined ? '' : `,"input":${input}`;
    return `{"id":${id},${jsonrpc}"method":"subscription","params":{"path":${JSON.stringify(path)}${inputField}${lastEventId}}}`;
  };
  switch (
    random.weighted({
      call: 10,
      meta: 2,
      cancel: 2,
      release: 1,
      invoke: 2,
      reply: 2,
      control: 1,
      watch: 2,
      refWatch: 1,
      interactions: 1,
      stop: 1,
    })
  ) {
    case 'call':
      return mutation(random.pick(targets.methods), superjson(callInput(random)));
    case 'meta':
      return mutation(
        random.pick(targets.methods),
        `{"json":${callInput(random)},"meta":{"values":{"a.0":[${random.pick(['"Date"', '"map"', '"set"', '"bigint"', '["class","X"]'])}]}}}`,
      );
    case 'cancel':
      return mutation('$rpc.cancel', superjson(`{"c":${callId(random)}}`));
    case 'release':
      return mutation('$rpc.release', superjson(`{"r":${refId(random)}}`));
    case 'invoke':
      return mutation(
        '$rpc.invoke',
        superjson(
          `{"r":${refId(random)},"m":${random.pick(['"x"', '"toString"', '"__proto__"', '"then"'])},"a":[${hostileJson(random)}],"c":${callId(random)},"t":{}}`,
        ),
      );
    case 'reply':
      return mutation(
        '$rpc.reply',
        superjson(
          random.chance(0.5)
            ? `{"requestId":${callId(random)},"response":${hostileJson(random)}}`
            : `{"requestId":${callId(random)},"error":{"code":${random.pick(['"internal"', '"x"', '1'])},"message":${hostileJson(random)}}}`,
        ),
      );
    case 'control':
      return mutation(
        random.pick(['$rpc.hello', '$rpc.describe']),
        random.pick(['null', '{"json":null}', '{}', hostileJson(random)]),
      );
    case 'watch':
      return subscription(
        `${random.pick(targets.services)}.$watch`,
        random.chance(0.7) ? undefined : hostileJson(random),
      );
    case 'refWatch':
      return subscription('$rpc.watch', superjson(`{"r":${refId(random)}}`));
    case 'interactions':
      return subscription(
        '$rpc.interactions',
        superjson(`{"ids":[${random.pick(['"question"', '"tool-confirm"', '"x"', hostileJson(random)])}]}`),
      );
    case 'stop':
      return `{"id":${id},"method":"subscription.stop"}`;
  }
}

/** A call's input `{ a, c, t }`, each part sometimes of the wrong shape. */
function callInput(random: SeededRandom): string {
  const args = random.chance(0.9)
    ? `[${Array.from({ length: random.int(4) }, () => hostileJson(random)).join(',')}]`
    : hostileJson(random);
  const trace = random.pick([
    '{}',
    '{"traceparent":"00-00000000000000000000000000000000-0000000000000000-00"}',
    `{"traceparent":"${'f'.repeat(random.chance(0.1) ? 10_000 : 100)}"}`,
    hostileJson(random),
  ]);
  return `{"a":${args},"c":${callId(random)},"t":${trace}}`;
}

function superjson(json: string): string {
  return `{"json":${json}}`;
}

/** Call ids repeat often, so calls collide with each other and `$rpc.cancel` finds some of them. */
function callId(random: SeededRandom): string {
  return random.chance(0.7) ? `"c${random.int(16)}"` : hostileJson(random);
}

function refId(random: SeededRandom): string {
  return random.chance(0.7) ? `"r${random.int(16)}"` : hostileJson(random);
}
