import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: '@pi/cli', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] },
});
