import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SoakHome } from './soak-home';

/** The ids of every entry in a session's JSONL file, as it is on disk now (a torn last line is skipped). */
export function entryIdsOnDisk(home: SoakHome, sessionId: string): Set<string> {
  let text = '';
  try {
    text = readFileSync(join(home.directories.dataDir, 'sessions', `${sessionId}.jsonl`), 'utf8');
  } catch {
    return new Set();
  }
  const ids = new Set<string>();
  for (const line of text.split('\n')) {
    try {
      const entry = JSON.parse(line) as { id?: unknown };
      if (typeof entry.id === 'string') ids.add(entry.id);
    } catch {
      // the torn tail a kill -9 may leave
    }
  }
  return ids;
}
