import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: '@pi/prompt-resources-session', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] },
});
