import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: '@pi/connection-files', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] },
});
