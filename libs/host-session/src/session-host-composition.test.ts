import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defineLocalService } from '@pi/remote';
import { Probe, createProbe } from '@pi/test-support';
import type { SessionFacet } from '@pi/plugin-api';
import { startSessionHost, type SessionHost } from './session-host';
import { testSessionHostOptions, type TestFacet } from './testing';

const directories: string[] = [];
const hosts: SessionHost[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.stop()));
  await Promise.all(directories.splice(0).map((directory) => rm(directory, { recursive: true, force: true })));
});

async function freshDirectory(): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), 'pi-host-'));
  directories.push(directory);
  return directory;
}

/** Starts a host on `directory` and keeps it for teardown when it started. */
async function start(directory: string, setup: Parameters<typeof testSessionHostOptions>[1]) {
  const started = await startSessionHost(testSessionHostOptions(directory, setup));
  if (started.isOk()) hosts.push(started.value);
  return started;
}

/** A facet that records its setup, activation and disposal in `log`. */
function recording(id: string, log: string[], extra: SessionFacet = () => undefined): TestFacet {
  return {
    id,
    facet: async (context) => {
      log.push(`setup ${id}`);
      context.onActivate(() => void log.push(`activate ${id}`));
      context.onDispose(() => void log.push(`dispose ${id}`));
      await extra(context);
    },
  };
}

describe('phases and disposal', () => {
  it('activates only after every facet has run its setup, so a facet may use a service a later one provides', async () => {
    const log: string[] = [];
    const probe = createProbe();
    let seen: unknown;
    const first = recording('@t/first', log, (context) => context.onActivate(() => void (seen = context.use(Probe))));
    const last = recording('@t/last', log, (context) => context.provide(Probe, probe));

    await start(await freshDirectory(), { facets: [first, recording('@t/middle', log), last] });

    expect(log).toEqual([
      'setup @t/first',
      'setup @t/middle',
      'setup @t/last',
      'activate @t/first',
      'activate @t/middle',
      'activate @t/last',
    ]);
    expect(seen).toBe(probe);
  });

  it('disposes every facet in reverse manifest order on stop, and stop is idempotent', async () => {
    const log: string[] = [];
    const started = await start(await freshDirectory(), {
      facets: ['@t/a', '@t/b', '@t/c'].map((id) => recording(id, log)),
    });
    const host = started._unsafeUnwrap();
    log.length = 0;

    const [report] = await Promise.all([host.stop(), host.stop()]);

    expect(report.failures).toEqual([]);
    expect(log).toEqual(['dispose @t/c', 'dispose @t/b', 'dispose @t/a']);
  });

  it('fails startup on a duplicate service id, naming the plugin and the service, and disposes the earlier facets in reverse', async () => {
    const log: string[] = [];
    const directory = await freshDirectory();
    const facets = [
      recording('@t/a', log, (context) => context.provide(Probe, createProbe())),
      recording('@t/b', log),
      recording('@t/c', log, (context) => context.provide(Probe, createProbe())),
    ];

    const started = await start(directory, { facets });

    const error = started._unsafeUnwrapErr();
    expect(error.code).toBe('plugin_failed');
    expect(error.message).toContain('"@t/c"');
    expect(error.message).toContain('"probe"');
    expect(log).toEqual(['setup @t/a', 'setup @t/b', 'setup @t/c', 'dispose @t/c', 'dispose @t/b', 'dispose @t/a']);
    // The session was closed on the way out: its lock is free for the next start.
    expect((await start(directory, { facets: [recording('@t/a', [])] })).isOk()).toBe(true);
  });

  it('fails startup with a clear error naming a service nobody provides', async () => {
    const Missing = defineLocalService<{ ping(): void }>('missing-thing');
    let thrown: unknown;
    const user: SessionFacet = (context) => {
      try {
        context.use(Missing);
      } catch (error) {
        thrown = error;
        throw error;
      }
    };

    const started = await start(await freshDirectory(), { facets: [{ id: '@t/user', facet: user }] });

    expect(String(thrown)).toContain('"missing-thing"');
    expect(started._unsafeUnwrapErr()).toMatchObject({ code: 'plugin_failed' });
    expect(started._unsafeUnwrapErr().message).toMatch(/"@t\/user".*"missing-thing"/);
  });

  it('rolls back in reverse order when an activation fails', async () => {
    const log: string[] = [];
    const failing = recording('@t/b', log, (context) =>
      context.onActivate(() => {
        throw new Error('no network');
      }),
    );

    const started = await start(await freshDirectory(), {
      facets: [recording('@t/a', log), failing, recording('@t/c', log)],
    });

    expect(started._unsafeUnwrapErr().message).toMatch(/"@t\/b".*activate.*no network/);
    expect(log.slice(-3)).toEqual(['dispose @t/c', 'dispose @t/b', 'dispose @t/a']);
  });

  it('refuses a service provided after startup, since the RPC surface is already generated', async () => {
    let late: (() => void) | undefined;
    await start(await freshDirectory(), {
      facets: [{ id: '@t/late', facet: (context) => void (late = () => context.provide(Probe, createProbe())) }],
    });
    expect(() => late?.()).toThrow(/"@t\/late".*setup or activation/);
  });
});
