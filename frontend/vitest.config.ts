import { defineConfig } from 'vitest/config';

// Unit tests live beside the code; the browser suite in e2e/ is Playwright's.
export default defineConfig({
  test: {
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'node',
    restoreMocks: true,
    unstubGlobals: true,
    setupFiles: ['src/test/setup.ts'],
  },
});
