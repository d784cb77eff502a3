import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: '@pi/host-kit', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] },
});
