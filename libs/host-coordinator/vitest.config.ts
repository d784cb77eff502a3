import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: '@pi/host-coordinator', include: ['src/**/*.test.ts'] },
});
