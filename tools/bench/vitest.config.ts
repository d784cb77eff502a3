import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: '@pi/bench', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] },
});
