import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { serialQueue, writeFileAtomic } from '@pi/atomic-file';
import type { JsonValue } from '@pi/json';
import type { StoredView } from './view-registry';

/** Where a session's durable views live: beside its session file, replaced whole on every change. */
export function durableViewsFile(sessionFile: string): string {
  return `${sessionFile}.views.json`;
}

const storedSchema = z.object({
  views: z.array(
    z.object({
      viewId: z.string().min(1),
      owner: z.string().min(1),
      component: z.string().min(1),
      state: z.json(),
      to: z.union([z.literal('all'), z.array(z.string())]),
      step: z.object({ operationId: z.string().min(1), toolCallId: z.string().min(1) }).optional(),
    }),
  ),
});

/** The durable views a previous process left open; none when there is no file. A file that is not ours is an error. */
export async function readDurableViews(file: string): Promise<{ views: StoredView[]; problem: string | null }> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { views: [], problem: null };
    return { views: [], problem: `cannot read ${file}: ${(error as Error).message}` };
  }
  try {
    const parsed = storedSchema.safeParse(JSON.parse(text));
    if (parsed.success) {
      const views = parsed.data.views.map(({ step, ...view }) => ({
        ...view,
        state: view.state as JsonValue,
        ...(step === undefined ? {} : { step }),
      }));
      return { views, problem: null };
    }
  } catch {
    // Not JSON: reported below like any other malformed file.
  }
  return { views: [], problem: `${file} is not a durable views file; its views were not restored` };
}

/**
 * Writes the durable views, the newest set last: writes run one at a time and a write that has been overtaken by
 * a newer one is skipped. `flushed` resolves once what was asked so far is on disk.
 */
export function durableViewsWriter(file: string, onFailure: (message: string) => void) {
  const queue = serialQueue();
  let latest: readonly StoredView[] | undefined;
  let last: Promise<void> = Promise.resolve();
  return {
    write(views: readonly StoredView[]): void {
      latest = views;
      last = queue(async () => {
        if (latest === undefined) return;
        const content = `${JSON.stringify({ views: latest })}\n`;
        latest = undefined;
        await writeFileAtomic(file, content, { fileMode: 0o600 });
      }).catch((error: unknown) => onFailure(`cannot write ${file}: ${(error as Error).message}`));
    },
    flushed: (): Promise<void> => last,
  };
}
