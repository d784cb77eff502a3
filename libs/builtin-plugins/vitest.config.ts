import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: '@pi/builtin-plugins', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] },
});
