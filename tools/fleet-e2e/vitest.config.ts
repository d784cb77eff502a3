import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: '@pi/fleet-e2e', include: ['src/**/*.test.ts'], testTimeout: 60_000 },
});
