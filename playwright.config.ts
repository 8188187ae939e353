// Playwright: Debian's Chromium against fresh AdminEase servers (temporary data folders) serving dist/web: one server
// per worker, on port 3100 (or E2E_PORT) and the ports after it.
import { defineConfig, devices } from '@playwright/test';

// E2E_PORT (with PLAYWRIGHT_OUTPUT_DIR and ADMINEASE_WEB_DIR) lets several runs share one checkout, each with its own servers.
const PORT = Number(process.env.E2E_PORT || 3100);
// E2E_WORKERS: how many spec files run at once (`npm run test:e2e` runs two; one by default, as for a single spec).
// Each worker has a server and database of its own: the config is loaded again in every worker process, where
// TEST_PARALLEL_INDEX (0 .. workers-1, kept by a worker that replaces a failed one) picks the worker's server. The
// files are shared out as workers come free; the tests of one file run in order in one worker, against one server.
const WORKERS = Math.max(1, Math.floor(Number(process.env.E2E_WORKERS || 1)));
const serverPort = (index: number) => PORT + index;
const ownPort = serverPort(Number(process.env.TEST_PARALLEL_INDEX || 0));

export default defineConfig({
  testDir: 'e2e',
  outputDir: process.env.PLAYWRIGHT_OUTPUT_DIR || 'test-results',
  fullyParallel: false,
  workers: WORKERS,
  forbidOnly: Boolean(process.env.CI),
  // On CI a failed test runs once more (a loaded machine's timing); a second failure fails the run. Locally: no retry.
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    baseURL: `http://localhost:${ownPort}`,
    // Recording a trace (DOM snapshots and screencast frames of every step) took a third of a spec's time and half
    // its CPU, for every passing test too: traces are recorded on a failed test's retry (CI retries once), which is
    // the run that fails CI.
    trace: 'on-first-retry',
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
  webServer: Array.from({ length: WORKERS }, (_, index) => ({
    command: 'node e2e/start-test-server.mjs',
    env: { E2E_PORT: String(serverPort(index)) },
    url: `http://localhost:${serverPort(index)}/`,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: 'ignore' as const,
    stderr: 'pipe' as const,
    gracefulShutdown: { signal: 'SIGTERM' as const, timeout: 25_000 },
  })),
});
