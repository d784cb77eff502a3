import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: '@pi/client', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] },
});
