import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: '@pi/transport-trpc', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] },
});
