import { connect } from '@pi/client';
import { Models } from '@pi/providers-builtin';
import type { WatcherReport } from './watcher-protocol';

/**
 * Presentations watching Models, in a process of their own so decoding large snapshots never delays the
 * benchmark's own clock. Usage (IPC child): `node --import tsx watcher-process.ts <cwd> <dataDir> <watchers>`.
 */
const [cwd, dataDir, count] = process.argv.slice(2);
const report = (message: WatcherReport) => process.send?.(message);

try {
  for (let watcher = 0; watcher < Number(count); watcher += 1) {
    // No heartbeat: a host that blocks for seconds would otherwise be dropped, and the figure is how long it blocks.
    const connected = await connect({ cwd, dataDir, heartbeat: false });
    if (connected.isErr()) throw connected.error;
    const models = await connected.value.use(Models);
    models.state.subscribe((state) =>
      report({
        type: 'state',
        watcher,
        models: state.catalog.availableModels.length,
        lastName: state.catalog.availableModels.at(-1)?.name ?? null,
        refresh: state.refresh.status,
        fileWarning: state.refresh.status === 'warning' ? (state.refresh.errors['models.json'] ?? null) : null,
      }),
    );
  }
  report({ type: 'ready' });
} catch (error) {
  report({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
}
process.on('disconnect', () => process.exit(0));
