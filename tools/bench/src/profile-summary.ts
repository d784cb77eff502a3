import { readFile } from 'node:fs/promises';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatTable } from './text-table';
import { loadTsxSourceMaps, type Locate } from './tsx-source-maps';

/**
 * Where a `--cpu-prof` profile spent its time: the top functions by self time and by inclusive time, each
 * as `function file:line` relative to the workspace. Usage: `tsx src/profile-summary.ts <file.cpuprofile> [top]`.
 */
interface ProfileNode {
  readonly id: number;
  readonly callFrame: {
    readonly functionName: string;
    readonly url: string;
    readonly lineNumber: number;
    readonly columnNumber: number;
  };
  readonly children?: readonly number[];
}

interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

const workspace = fileURLToPath(new URL('../../../', import.meta.url));

export function frameLabel(frame: ProfileNode['callFrame'], locate: Locate = () => undefined): string {
  const absolute = frame.url.startsWith('file://') ? fileURLToPath(frame.url) : frame.url;
  const line = locate(absolute, frame.lineNumber, frame.columnNumber) ?? frame.lineNumber + 1;
  const path = frame.url.startsWith('file://') ? relative(workspace, absolute) : frame.url;
  return `${frame.functionName || '(anonymous)'} ${path === '' ? '(native)' : `${path}:${line}`}`;
}

/** Who owns a frame: a package (`@trpc/server`, `ws`), a workspace project (`libs/remote`), or `node`. */
export function frameOwner(url: string, root = workspace): string {
  if (url.startsWith('node:')) return 'node';
  const packageMatch = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (packageMatch?.[1] !== undefined) return packageMatch[1];
  if (!url.startsWith('file://')) return url;
  const segments = relative(root, fileURLToPath(url)).split('/');
  return segments.length > 2 ? segments.slice(0, segments[0] === 'plugins' ? 3 : 2).join('/') : segments.join('/');
}

/** Self and inclusive milliseconds per frame label (a recursive frame counts once per sample), and self time per owner. */
export function summarize(
  profile: CpuProfile,
  locate?: Locate,
): { self: Map<string, number>; inclusive: Map<string, number>; owners: Map<string, number>; totalMs: number } {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const owners = new Map<string, number>();
  let totalMs = 0;
  profile.samples.forEach((id, index) => {
    const ms = (profile.timeDeltas[index] ?? 0) / 1000;
    totalMs += ms;
    const leaf = byId.get(id);
    if (leaf === undefined) return;
    const label = frameLabel(leaf.callFrame, locate);
    self.set(label, (self.get(label) ?? 0) + ms);
    const owner = leaf.callFrame.url === '' ? leaf.callFrame.functionName : frameOwner(leaf.callFrame.url);
    owners.set(owner, (owners.get(owner) ?? 0) + ms);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at);
      if (frame === undefined) break;
      const key = frameLabel(frame.callFrame, locate);
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + ms);
    }
  });
  return { self, inclusive, owners, totalMs };
}

function top(table: Map<string, number>, totalMs: number, count: number): string[][] {
  return [...table.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([label, ms]) => [label, ms.toFixed(0), `${((ms / totalMs) * 100).toFixed(1)}%`]);
}

if (process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1].split('/').pop() ?? '')) {
  const [file, count = '25'] = process.argv.slice(2);
  if (file === undefined) throw new Error('usage: profile-summary.ts <file.cpuprofile> [top]');
  const { self, inclusive, owners, totalMs } = summarize(
    JSON.parse(await readFile(file, 'utf8')) as CpuProfile,
    await loadTsxSourceMaps(),
  );
  const lines = [
    `${file}: ${totalMs.toFixed(0)} ms sampled`,
    '',
    ...formatTable(['self time by owner', 'ms', 'share'], top(owners, totalMs, 20)),
    '',
    ...formatTable(['self time', 'ms', 'share'], top(self, totalMs, Number(count))),
    '',
    ...formatTable(['inclusive time', 'ms', 'share'], top(inclusive, totalMs, Number(count))),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}
