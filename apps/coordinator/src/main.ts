import { installTraceExport } from '@pi/trace-export';
import { coordinatorFiles, piDirectories } from '@pi/connection-files';
import { USAGE, parseCliOptions, type CliOptions } from './cli-options';
import { runningCoordinator, startInBackground, stopRunning } from './daemon';

/** Resolves with the first SIGINT or SIGTERM; listening from the start, so one sent during startup is not lost. */
function nextStopSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
}

function passedOn(options: CliOptions): string[] {
  return [
    ...(options.manifest === undefined ? [] : ['--manifest', options.manifest]),
    ...(options.dataDir === undefined ? [] : ['--data-dir', options.dataDir]),
    ...(options.configDir === undefined ? [] : ['--config-dir', options.configDir]),
    ...(options.idleStop === undefined ? [] : ['--idle-stop', options.idleStop]),
    ...(options.listen === undefined
      ? []
      : [
          '--listen',
          `${options.listen.host}:${options.listen.port}`,
          '--tls-cert',
          options.listen.certFile,
          '--tls-key',
          options.listen.keyFile,
        ]),
    ...options.replicas.flatMap((url) => ['--replica', url]),
    ...(options.tlsCa === undefined ? [] : ['--tls-ca', options.tlsCa]),
  ];
}

async function main(): Promise<number> {
  const parsed = parseCliOptions(process.argv.slice(2));
  if (parsed.isErr()) {
    process.stderr.write(`pi-coordinator: ${parsed.error}\n`);
    return 2;
  }
  const options = parsed.value;
  if (options.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const files = coordinatorFiles(piDirectories(process.env, options));
  switch (options.command) {
    case 'status': {
      const running = await runningCoordinator(files);
      if (options.json) {
        process.stdout.write(
          `${JSON.stringify(running === undefined ? { running: false } : { running: true, pid: running.pid, socketPath: running.socketPath })}\n`,
        );
      } else {
        process.stdout.write(
          running === undefined
            ? 'pi-coordinator: not running\n'
            : `pi-coordinator: running (pid ${running.pid}) on ${running.socketPath}\n`,
        );
      }
      return running === undefined ? 3 : 0;
    }
    case 'stop': {
      const stopped = await stopRunning(files);
      if (stopped.outcome === 'still_running') {
        process.stderr.write(`pi-coordinator: pid ${stopped.pid} did not stop within 20 s; it still runs\n`);
        return 1;
      }
      process.stdout.write(
        stopped.outcome === 'stopped' ? 'pi-coordinator: stopped\n' : 'pi-coordinator: not running\n',
      );
      return 0;
    }
    case 'start': {
      const already = await runningCoordinator(files);
      if (already !== undefined) {
        process.stdout.write(`pi-coordinator: already running (pid ${already.pid}) on ${already.socketPath}\n`);
        return 0;
      }
      // The URL may hold a password: the background `run` gets it in its environment, never on its command line.
      const env = options.database === undefined ? process.env : { ...process.env, PI_DATABASE_URL: options.database };
      const started = await startInBackground(files, passedOn(options), env);
      if ('failed' in started) {
        process.stderr.write(`pi-coordinator: did not start: ${started.failed}\n`);
        return 1;
      }
      process.stdout.write(`pi-coordinator: running (pid ${started.running.pid}) on ${started.running.socketPath}\n`);
      return 0;
    }
    case 'run':
      return run(options);
    case 'enroll': {
      if (options.enroll === undefined) return 2;
      const { enrollSession } = await import('./enroll');
      const enrolled = await enrollSession(files, options.enroll);
      if (enrolled.isErr()) {
        process.stderr.write(`pi-coordinator: ${enrolled.error}\n`);
        return 1;
      }
      process.stdout.write(
        `pi-coordinator: enrolled session ${enrolled.value.sessionId} for ${options.enroll.cwd}; its credential is in ${options.enroll.out}\n`,
      );
      return 0;
    }
  }
}

async function run(options: CliOptions): Promise<number> {
  const stopSignal = nextStopSignal();
  // Only `run` loads the coordinator itself (its host, plugins, SQLite): `status`, `stop` and `start` skip them.
  const { startCoordinator } = await import('./start-coordinator');
  const started = await startCoordinator(options, process.env, import.meta.url);
  if (started.isErr()) {
    process.stderr.write(`pi-coordinator: ${started.error}\n`);
    return 1;
  }
  const coordinator = started.value;
  if (coordinator.adopted.length > 0) {
    process.stdout.write(`pi-coordinator: took over running sessions ${coordinator.adopted.join(', ')}\n`);
  }
  process.stdout.write(`pi-coordinator: listening on ${coordinator.files.socketPath} (pid ${process.pid})\n`);
  if (coordinator.tlsUrl !== undefined)
    process.stdout.write(`pi-coordinator: listening on ${coordinator.tlsUrl} too\n`);
  const signal = await stopSignal;
  const failures = await coordinator.stop();
  for (const failure of failures) process.stderr.write(`pi-coordinator: stopping: ${failure}\n`);
  process.stdout.write(`pi-coordinator: stopped on ${signal}\n`);
  return failures.length === 0 ? 0 : 1;
}

const traceExport = await installTraceExport({ env: process.env, defaultServiceName: 'pi-coordinator' });
try {
  process.exitCode = await main();
} catch (error) {
  process.stderr.write(`pi-coordinator: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
await traceExport?.shutdown();
process.exit(process.exitCode);
