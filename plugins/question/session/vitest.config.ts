import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: '@pi/question-session', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] },
});
