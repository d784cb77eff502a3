import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: '@pi/agent-contract', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] },
});
