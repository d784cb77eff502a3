import { defineProject } from 'vitest/config';

// The tests build real bundles with esbuild and start them: give a 2-core machine room.
export default defineProject({
  test: { name: '@pi/app-bundle', include: ['src/**/*.test.ts'], testTimeout: 120_000 },
});
