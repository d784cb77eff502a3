import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: '@pi/system-prompt', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] },
});
