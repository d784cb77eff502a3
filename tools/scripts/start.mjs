// `npm start`: no host (apps/coordinator, apps/session, apps/tui) is runnable yet, so this prints the
// workspace layout — every project with its tags, read from the package.json files — and says so.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const groups = [
  { folder: 'apps', depth: 1 },
  { folder: 'libs', depth: 1 },
  { folder: 'plugins', depth: 2 },
  { folder: 'tools', depth: 1 },
];

function projectDirs(dir, depth) {
  if (!existsSync(dir)) return [];
  const children = readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== 'node_modules')
    .map((entry) => join(dir, entry.name))
    .sort();
  return depth === 1 ? children : children.flatMap((child) => projectDirs(child, depth - 1));
}

function readProject(dir) {
  const manifest = join(dir, 'package.json');
  if (!existsSync(manifest)) return undefined;
  const { name, nx } = JSON.parse(readFileSync(manifest, 'utf-8'));
  return { path: relative(root, dir), name: name ?? '(unnamed)', tags: nx?.tags ?? [] };
}

const lines = ['pi workspace layout', ''];
for (const { folder, depth } of groups) {
  const projects = projectDirs(join(root, folder), depth).map(readProject).filter(Boolean);
  lines.push(`${folder}/ (${projects.length})`);
  if (projects.length === 0) lines.push('  (none yet)');
  const width = Math.max(0, ...projects.map((project) => project.path.length));
  for (const project of projects) {
    lines.push(`  ${project.path.padEnd(width)}  ${project.name}  [${project.tags.join(', ') || 'no tags'}]`);
  }
  lines.push('');
}
const hosts = ['apps/coordinator', 'apps/session', 'apps/tui'].filter((app) => existsSync(join(root, app, 'package.json')));
lines.push(
  hosts.length === 0
    ? 'No host is runnable yet: apps/coordinator, apps/session and apps/tui do not exist. Run `npm test` to check the libraries.'
    : `Hosts present (${hosts.join(', ')}), but start.mjs does not launch them yet; run them with nx.`,
);
console.log(lines.join('\n'));
