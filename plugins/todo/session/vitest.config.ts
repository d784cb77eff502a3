import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: '@pi/todo-session', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] },
});
