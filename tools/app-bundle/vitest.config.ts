import { defineProject } from 'vitest/config';

// The tests build real bundles with esbuild (in beforeAll) and start them: give a 2-core machine room, hooks too — in a
// full run a session bundle's build beside ESLint and tsc took longer than the 10 s default.
export default defineProject({
  test: { name: '@pi/app-bundle', include: ['src/**/*.test.ts'], testTimeout: 120_000, hookTimeout: 120_000 },
});
