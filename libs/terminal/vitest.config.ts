import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: '@pi/terminal', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] },
});
