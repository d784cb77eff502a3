import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: '@pi/chat-tui', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] },
});
