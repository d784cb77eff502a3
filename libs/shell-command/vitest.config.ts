import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: '@pi/shell-command', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] },
});
