import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: '@pi/todo', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] },
});
