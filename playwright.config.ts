// Playwright: Debian's Chromium against a fresh AdminEase server (port 3100 or E2E_PORT, temporary data folder) serving dist/web.
import { defineConfig, devices } from '@playwright/test';

// E2E_PORT (with PLAYWRIGHT_OUTPUT_DIR and ADMINEASE_WEB_DIR) lets several runs share one checkout, each with its own server.
const PORT = Number(process.env.E2E_PORT || 3100);

export default defineConfig({
  testDir: 'e2e',
  outputDir: process.env.PLAYWRIGHT_OUTPUT_DIR || 'test-results',
  fullyParallel: false,
  workers: 1,
  forbidOnly: Boolean(process.env.CI),
  // On CI a failed test runs once more (a loaded machine's timing); a second failure fails the run. Locally: no retry.
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    baseURL: `http://localhost:${PORT}`,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    ...devices['Desktop Chrome'],
    viewport: { width: 1440, height: 900 },
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  webServer: {
    command: 'node e2e/start-test-server.mjs',
    url: `http://localhost:${PORT}/`,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: 'ignore',
    stderr: 'pipe',
    gracefulShutdown: { signal: 'SIGTERM', timeout: 25_000 },
  },
});
