import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: '@pi/editor', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] },
});
