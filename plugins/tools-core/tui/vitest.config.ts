import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: '@pi/tools-core-tui', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] },
});
