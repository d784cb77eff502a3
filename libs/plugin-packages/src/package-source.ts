import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { err, ok, type Result } from 'neverthrow';
import type { PackageError } from './package-error';

/** What `pi install` was given, as npm will be asked for it. */
export interface PackageSource {
  readonly kind: 'npm' | 'path' | 'git';
  /** The argument npm installs: a registry spec, an absolute path, or a git URL. */
  readonly spec: string;
}

const NPM_NAME = /^(@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*(@[^\s/]+)?$/i;
const GIT_URL = /^(git\+(https|ssh|file):\/\/|git:\/\/|ssh:\/\/|https:\/\/.+\.git(#.*)?$|github:|gitlab:|bitbucket:)/;

/**
 * Reads a package source as pi's users write it: `npm:name[@version]` or a bare `name[@version]`; a path (`./x`,
 * `../x`, `/x`, `~/x`, or anything that exists on disk: a folder or a packed `.tgz`), resolved against `cwd`;
 * `git:host/owner/repo[@ref]` or a git URL npm understands (`git+https://…`, `https://….git`, `github:owner/repo`).
 */
export function parsePackageSource(
  text: string,
  cwd: string,
  home: string | undefined,
): Result<PackageSource, PackageError> {
  const source = text.trim();
  if (source === '')
    return err({ code: 'bad_source', message: 'No package given: pi install <npm name | path | git url>' });
  if (source.startsWith('npm:')) return npmSource(source.slice(4), source);
  if (source.startsWith('git:') && !source.startsWith('git://')) {
    const [where, ref] = source.slice(4).split('@') as [string, string | undefined];
    return ok({
      kind: 'git',
      spec: `git+https://${where.replace(/\.git$/, '')}.git${ref === undefined ? '' : `#${ref}`}`,
    });
  }
  if (GIT_URL.test(source)) return ok({ kind: 'git', spec: source });
  const expanded = source.startsWith('~/') && home !== undefined ? resolve(home, source.slice(2)) : source;
  const looksLikePath = /^\.{1,2}(\/|$)/.test(expanded) || isAbsolute(expanded) || expanded.endsWith('.tgz');
  if (looksLikePath || existsSync(resolve(cwd, expanded))) {
    const path = resolve(cwd, expanded);
    if (!existsSync(path)) return err({ code: 'bad_source', message: `No such file or folder: ${path}` });
    return ok({ kind: 'path', spec: path });
  }
  return npmSource(source, source);
}

function npmSource(name: string, given: string): Result<PackageSource, PackageError> {
  if (!NPM_NAME.test(name)) {
    return err({
      code: 'bad_source',
      message: `"${given}" is neither an npm package name, a path nor a git URL`,
    });
  }
  return ok({ kind: 'npm', spec: name });
}
