import { defineProject } from 'vitest/config';

// The typecheck and lint tests run real TypeScript programs and the ESLint CLI: seconds each on a loaded 2-core machine.
export default defineProject({
  test: { name: '@pi/workspace', include: ['src/**/*.test.ts', 'test/**/*.test.ts'], testTimeout: 60_000 },
});
