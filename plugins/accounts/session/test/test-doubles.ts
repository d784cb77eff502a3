import { vi } from 'vitest';
import type { ModelProvider, ProviderLogin } from '@pi/agent';

/** A provider in the registry that is never asked to answer; with `login`, it signs in through OAuth. */
export function silentProvider(id: string, login?: ProviderLogin): ModelProvider {
  return {
    id,
    name: id,
    ...(login === undefined ? {} : { login }),
    models: () => [],
    stream: async function* () {
      // Never asked to answer in these tests.
    },
  };
}

/** Everything this process wrote to the console or its standard streams while the test ran. */
export function captureLogs(): { text(): string; restore(): void } {
  const lines: string[] = [];
  const record = (...args: unknown[]) =>
    void lines.push(args.map((arg) => (typeof arg === 'string' ? arg : JSON.stringify(arg))).join(' '));
  const spies = [
    ...(['log', 'info', 'warn', 'error', 'debug', 'trace'] as const).map((method) =>
      vi.spyOn(console, method).mockImplementation(record),
    ),
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (record(String(chunk)), true)),
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (record(String(chunk)), true)),
  ];
  return { text: () => lines.join('\n'), restore: () => spies.forEach((spy) => spy.mockRestore()) };
}
