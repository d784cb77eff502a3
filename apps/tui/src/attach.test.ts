import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sessionSwitcher } from './attach';
import { parseCliOptions, type CliOptions } from './cli-options';

const folders: string[] = [];
afterEach(async () => {
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

const optionsOf = (...argv: string[]): CliOptions => parseCliOptions(argv, '/work/project')._unsafeUnwrap();

describe('switching sessions from the TUI', () => {
  it('is refused for a TUI attached by socket or URL', () => {
    expect(sessionSwitcher(optionsOf('--socket', '/tmp/s.sock'), '/nowhere', {})).toBeUndefined();
    expect(sessionSwitcher(optionsOf('--url', 'ws://127.0.0.1:1'), '/nowhere', {})).toBeUndefined();
  });

  it('looks the session up by id in the data directory, whichever way the TUI was attached', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'pi-tui-switch-'));
    folders.push(dataDir);
    for (const argv of [[], ['--start'], ['--session', 's-a'], ['--connection', join(dataDir, 'elsewhere.json')]]) {
      const switcher = sessionSwitcher(optionsOf(...argv), dataDir, {});
      expect(switcher, argv.join(' ')).toBeDefined();
      const outcome = await switcher?.('s-b');
      expect(outcome?.isErr() && outcome.error).toBe(
        `No running session "s-b" (looked in ${join(dataDir, 'sessions')})`,
      );
    }
  });
});
