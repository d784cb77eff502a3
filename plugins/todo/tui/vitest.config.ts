import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: '@pi/todo-tui', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] },
});
