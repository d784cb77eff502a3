import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: '@pi/trace-e2e', include: ['src/**/*.test.ts'], testTimeout: 60_000 },
});
