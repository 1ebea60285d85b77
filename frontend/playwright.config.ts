import { defineConfig } from '@playwright/test';

// Browser tests against the real server binary, started by the `server`
// fixture in e2e/fixtures.ts. Debian's Chromium: no browser download exists here.
export default defineConfig({
  testDir: 'e2e',
  testMatch: '*.spec.ts',
  workers: 1, // 2-core machine; the server runs beside the browser
  fullyParallel: false,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    headless: true,
    viewport: { width: 1280, height: 800 },
    // The tests' dates are UTC days (e2e/dates.ts): the browser's local day is the same one.
    timezoneId: 'UTC',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
});
