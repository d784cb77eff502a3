import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { chown, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The role tests connect as: not a superuser, so row-level security applies to it (superusers bypass it). */
export const TEST_POSTGRES_ROLE = 'pi_app';

/** The database the test role owns, so it may create schemas in it. */
export const TEST_POSTGRES_DATABASE = 'pi_test';

/** A throwaway PostgreSQL cluster on 127.0.0.1, made with `initdb` in a temporary directory. */
export interface PostgresCluster {
  /** A database URL for the ordinary test role (it may create databases), at the database it owns. */
  readonly url: string;
  /** The same server as its superuser, for tests that set a database up behind the repository's back. */
  readonly adminUrl: string;
  readonly port: number;
  /** The temporary directory that holds its data, socket and log. */
  readonly directory: string;
  /** Stops the server at once and removes its directory. */
  stop(): Promise<void>;
}

/** Either a cluster, or why there is none (PostgreSQL not installed, initdb failed, ...). */
export type PostgresClusterStart =
  | { readonly ok: true; readonly cluster: PostgresCluster }
  | { readonly ok: false; readonly reason: string };

/** Where the server's programs are: `PI_POSTGRES_BIN`, else Debian's newest `/usr/lib/postgresql/N/bin`. */
export function findPostgresBin(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const chosen = env['PI_POSTGRES_BIN'];
  if (chosen !== undefined && chosen !== '') return existsSync(join(chosen, 'initdb')) ? chosen : undefined;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((name) => /^\d+$/.test(name) && existsSync(join(root, name, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(root, versions[0], 'bin');
}

/**
 * Makes and starts a cluster. PostgreSQL refuses to run as root, so as root the server runs as the `postgres` user
 * the Debian package creates. Never throws: what went wrong comes back as the reason.
 */
export async function startPostgresCluster(env: NodeJS.ProcessEnv = process.env): Promise<PostgresClusterStart> {
  const bin = findPostgresBin(env);
  if (bin === undefined)
    return { ok: false, reason: 'no PostgreSQL server found (apt-get install postgresql, or set PI_POSTGRES_BIN)' };
  const owner = process.getuid?.() === 0 ? systemUser('postgres') : undefined;
  if (process.getuid?.() === 0 && owner === undefined)
    return { ok: false, reason: 'running as root and there is no postgres user to run the server as' };
  const run = (program: string, args: readonly string[]) => runAs(owner, join(bin, program), args);
  await stopAbandoned(run);
  const folder = await mkdtemp(join(tmpdir(), CLUSTER_PREFIX));
  const data = join(folder, 'data');
  try {
    // Whose cluster this is: a run killed before its teardown leaves it to the next run to stop.
    await writeFile(join(folder, OWNER_FILE), `${process.pid}\n`);
    if (owner !== undefined) await chown(folder, owner.uid, owner.gid);
    await run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--no-locale', '--no-sync']);
    const port = await freePort();
    const settings = [
      `-p ${port}`,
      `-k ${folder}`,
      "-c listen_addresses='127.0.0.1'",
      // A throwaway cluster: durability buys nothing and costs the suite's time.
      '-c fsync=off',
      '-c synchronous_commit=off',
      '-c full_page_writes=off',
      '-c max_connections=200',
    ].join(' ');
    await run('pg_ctl', ['-D', data, '-l', join(folder, 'server.log'), '-o', settings, '-w', '-t', '60', 'start']);
    const adminUrl = `postgres://postgres@127.0.0.1:${port}/postgres`;
    await run('psql', [
      adminUrl,
      '-v',
      'ON_ERROR_STOP=1',
      '-c',
      `CREATE ROLE ${TEST_POSTGRES_ROLE} LOGIN CREATEDB NOSUPERUSER NOBYPASSRLS`,
      '-c',
      `CREATE DATABASE ${TEST_POSTGRES_DATABASE} OWNER ${TEST_POSTGRES_ROLE}`,
    ]);
    let stopped: Promise<void> | undefined;
    const stop = () =>
      (stopped ??= (async () => {
        await run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
        await rm(folder, { recursive: true, force: true });
      })());
    return {
      ok: true,
      cluster: {
        url: `postgres://${TEST_POSTGRES_ROLE}@127.0.0.1:${port}/${TEST_POSTGRES_DATABASE}`,
        adminUrl: databaseUrl(adminUrl, TEST_POSTGRES_DATABASE),
        port,
        directory: folder,
        stop,
      },
    };
  } catch (error) {
    await run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
    const log = readLog(join(folder, 'server.log'));
    await rm(folder, { recursive: true, force: true });
    const detail = error instanceof Error ? error.message : String(error);
    return { ok: false, reason: `the test cluster did not start: ${detail}${log}` };
  }
}

const CLUSTER_PREFIX = 'pi-postgres-';
const OWNER_FILE = 'owner.pid';

/**
 * Stops the clusters of runs that ended without their teardown (killed, timed out): each names the process that
 * made it, and one whose process is gone is stopped and removed. A folder without that file is not one of these.
 */
async function stopAbandoned(run: (program: string, args: readonly string[]) => Promise<void>): Promise<void> {
  const names = await readdir(tmpdir()).catch(() => [] as string[]);
  for (const name of names.filter((entry) => entry.startsWith(CLUSTER_PREFIX))) {
    const folder = join(tmpdir(), name);
    const pid = Number((await readFile(join(folder, OWNER_FILE), 'utf8').catch(() => '')).trim());
    if (!Number.isInteger(pid) || pid <= 0 || isAlive(pid)) continue;
    await run('pg_ctl', ['-D', join(folder, 'data'), '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
    await rm(folder, { recursive: true, force: true });
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * A database of its own for one test on the cluster `url` points at, created by that URL's role (the test role may
 * create databases): answers its URL. Each test gets a fresh one, so tests sharing the run's cluster never meet.
 */
export async function createTestDatabase(url: string, prefix: string): Promise<string> {
  const bin = findPostgresBin();
  if (bin === undefined) throw new Error('createTestDatabase: no PostgreSQL binaries here');
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await runAs(undefined, join(bin, 'psql'), [url, '-v', 'ON_ERROR_STOP=1', '-c', `CREATE DATABASE ${name}`]);
  return databaseUrl(url, name);
}

/** The URL of another database on the same server, for the same role. */
export function databaseUrl(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

function systemUser(name: string): { uid: number; gid: number } | undefined {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith(`${name}:`));
  const [, , uid, gid] = line?.split(':') ?? [];
  return uid === undefined || gid === undefined ? undefined : { uid: Number(uid), gid: Number(gid) };
}

function runAs(owner: { uid: number; gid: number } | undefined, file: string, args: readonly string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(
      file,
      args,
      { ...(owner ?? {}), cwd: tmpdir(), env: { ...process.env, LC_ALL: 'C' }, timeout: 120_000 },
      (error, _stdout, stderr) => {
        if (error === null) resolve();
        else reject(new Error(`${file} ${args.join(' ')} failed: ${stderr.trim() || error.message}`));
      },
    );
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

function readLog(file: string): string {
  try {
    return `\n${readFileSync(file, 'utf8').trim().split('\n').slice(-10).join('\n')}`;
  } catch {
    return '';
  }
}
