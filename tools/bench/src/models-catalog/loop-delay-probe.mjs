// Preloaded into the session under test (`node --import`): its event-loop delay, read and reset over IPC.
// Plain JavaScript, because it loads before the session's own TypeScript loader.
import { monitorEventLoopDelay } from 'node:perf_hooks';

const histogram = monitorEventLoopDelay({ resolution: 1 });
histogram.enable();

// On a busy machine the delay also counts time the process waited for a CPU. The CPU time the process used
// between two ticks of a 1 ms timer does not: its largest value bounds the longest step the session ran (it
// includes V8's helper threads, so it errs long).
let lastCpu = cpuMicros();
let maxStepCpuMs = 0;
setInterval(() => {
  const cpu = cpuMicros();
  maxStepCpuMs = Math.max(maxStepCpuMs, (cpu - lastCpu) / 1000);
  lastCpu = cpu;
}, 1).unref();

function cpuMicros() {
  const { user, system } = process.cpuUsage();
  return user + system;
}

process.on('message', (message) => {
  if (message?.type === 'reset') {
    histogram.reset();
    maxStepCpuMs = 0;
    lastCpu = cpuMicros();
    process.send?.({ type: 'reset' });
  } else if (message?.type === 'read') {
    const ms = (nanoseconds) => nanoseconds / 1e6;
    process.send?.({ type: 'loop', maxMs: ms(histogram.max), p99Ms: ms(histogram.percentile(99)), maxStepCpuMs });
  }
});
