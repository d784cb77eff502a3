import { readFile, stat } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SessionEntry, SessionFileFault } from '@pi/agent-contract';
import { SessionFile, type AppendOutcome } from './session-file';
import { SessionFileUnwritable } from './session-file-fault';
import { parseSessionFile } from './session-file-parse';
import { createSessionDirectory, FaultyDisk, type SessionDirectory } from './testing';

let directory: SessionDirectory;
let file: SessionFile | undefined;
beforeEach(async () => {
  directory = await createSessionDirectory();
});
afterEach(async () => {
  await file?.close();
  file = undefined;
  await directory.remove();
});

const header = () => ({ type: 'session' as const, version: 1 as const, sessionId: 's', cwd: '/w', createdAt: 't' });
let parent: string | null = null;
const entry = (id: string): SessionEntry => {
  const made: SessionEntry = { id, parentId: parent, timestamp: 't', kind: 'custom', namespace: 'n', data: id };
  parent = id;
  return made;
};
/** Records what the file told memory about each append. */
function outcomes(): AppendOutcome & { log: string[] } {
  const log: string[] = [];
  return { log, written: () => log.push('written'), refused: () => log.push('refused') };
}

async function openOn(disk: FaultyDisk): Promise<SessionFile> {
  parent = null;
  file = (await SessionFile.open(directory.file, header, disk.wrap))._unsafeUnwrap().file;
  return file;
}

async function fileIds(): Promise<string[]> {
  const parsed = parseSessionFile(await readFile(directory.file))._unsafeUnwrap();
  expect(parsed.tornTail).toBeNull();
  return parsed.entries.map((restored) => restored.id);
}

describe('a session file on a disk that fails', () => {
  it('refuses a failed append whole, names the file and the cause, and cuts the torn tail before the next', async () => {
    const disk = new FaultyDisk();
    const session = await openOn(disk);
    await session.append([entry('a')], 'synced', outcomes());
    const before = (await stat(directory.file)).size;

    disk.fail({ code: 'ENOSPC', tornBytes: 10 });
    const told = outcomes();
    const failed = session.append([entry('b')], 'synced', told);
    await expect(failed).rejects.toBeInstanceOf(SessionFileUnwritable);
    await expect(failed).rejects.toThrow(
      `Cannot write the session file ${directory.file}: no space left on device (ENOSPC)`,
    );
    expect(told.log).toEqual(['refused']);
    // What a full disk leaves: part of a line.
    expect((await stat(directory.file)).size).toBe(before + 10);

    disk.recover();
    parent = 'a';
    await session.append([entry('c')], 'synced', outcomes());
    expect(await fileIds()).toEqual(['a', 'c']);
  });

  it('refuses the appends queued behind a failed one (their parents failed), and takes new ones after it', async () => {
    const disk = new FaultyDisk();
    const session = await openOn(disk);
    disk.fail({ code: 'EIO' });
    const first = session.append([entry('a')], 'synced', outcomes());
    const queuedBehind = outcomes();
    const behind = session.append([entry('b')], 'synced', queuedBehind);
    await expect(first).rejects.toThrow('input/output error (EIO)');
    disk.recover();
    // The disk works again, but `b` names `a` as its parent: it must not reach the file.
    await expect(behind).rejects.toBeInstanceOf(SessionFileUnwritable);
    expect(queuedBehind.log).toEqual(['refused']);
    parent = null;
    await session.append([entry('c')], 'synced', outcomes());
    expect(await fileIds()).toEqual(['c']);
  });

  it('cuts a complete line whose sync failed too: nobody was told it was written', async () => {
    const disk = new FaultyDisk();
    const session = await openOn(disk);
    await session.append([entry('a')], 'synced', outcomes());
    disk.fail({ code: 'EIO', during: 'datasync' });
    await expect(session.append([entry('b')], 'synced', outcomes())).rejects.toThrow('(EIO)');
    expect((await readFile(directory.file, 'utf8')).split('\n').filter(Boolean)).toHaveLength(3);
    disk.recover();
    parent = 'a';
    await session.append([entry('c')], 'synced', outcomes());
    expect(await fileIds()).toEqual(['a', 'c']);
  });

  it('writes several entries as one append: all of them, or none', async () => {
    const disk = new FaultyDisk();
    const session = await openOn(disk);
    disk.fail({ code: 'ENOSPC', tornBytes: 150 });
    await expect(session.append([entry('a'), entry('b')], 'synced', outcomes())).rejects.toThrow('ENOSPC');
    disk.recover();
    parent = null;
    await session.append([entry('c'), entry('d')], 'synced', outcomes());
    expect(await fileIds()).toEqual(['c', 'd']);
  });

  it('keeps the fault while the repair itself fails (a read-only remount), and clears it once a write succeeds', async () => {
    const disk = new FaultyDisk();
    const session = await openOn(disk);
    const faults: Array<SessionFileFault | null> = [];
    session.onFaultChanged((fault) => faults.push(fault));
    disk.fail({ code: 'EROFS', tornBytes: 5 });
    await expect(session.append([entry('a')], 'synced', outcomes())).rejects.toThrow('read-only file system (EROFS)');
    parent = null;
    // The torn bytes cannot be cut while the file system is read-only: this append fails before writing.
    await expect(session.append([entry('b')], 'synced', outcomes())).rejects.toThrow('(EROFS)');
    expect(session.fault).toEqual({
      code: 'session_file_unwritable',
      message: `Cannot write the session file ${directory.file}: read-only file system (EROFS)`,
      file: directory.file,
      cause: 'EROFS',
    });
    disk.recover();
    parent = null;
    await session.append([entry('c')], 'synced', outcomes());
    expect(session.fault).toBeNull();
    // One change to the fault, one back: a second failure of the same kind is not news.
    expect(faults.map((fault) => fault?.cause ?? null)).toEqual(['EROFS', null]);
    expect(await fileIds()).toEqual(['c']);
  });
});
