import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: '@pi/remote', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] },
});
