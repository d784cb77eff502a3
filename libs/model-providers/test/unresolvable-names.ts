import dns from 'node:dns';
import { onTestFinished, vi } from 'vitest';

/**
 * Makes names under `.invalid` fail to resolve as a resolver that answers says so (getaddrinfo's ENOTFOUND), for
 * the rest of the test, without asking the machine's resolver: where there is none or it cannot be reached (CI
 * without a network), getaddrinfo would answer EAI_AGAIN or only after its timeouts. Other names resolve as ever.
 */
export function unresolvableInvalidNames(): void {
  const lookup = dns.lookup;
  const spy = vi.spyOn(dns, 'lookup').mockImplementation(((hostname: string, ...rest: unknown[]) => {
    if (!hostname.endsWith('.invalid')) return (lookup as (...args: unknown[]) => void)(hostname, ...rest);
    const callback = rest.at(-1) as (error: NodeJS.ErrnoException) => void;
    const error = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), {
      code: 'ENOTFOUND',
      errno: -3008,
      syscall: 'getaddrinfo',
      hostname,
    });
    process.nextTick(callback, error);
  }) as typeof dns.lookup);
  onTestFinished(() => spy.mockRestore());
}
