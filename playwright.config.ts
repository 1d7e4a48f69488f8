import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from './src/browser';

const port = Number(process.env['DAEBUG_FIXTURES_PORT'] ?? 4517);
process.env['DAEBUG_FIXTURES_PORT'] = String(port);

export default defineConfig({
  testDir: 'e2e',
  // Bundles fixtures/app with esbuild (source maps) before any test runs.
  globalSetup: './e2e/global-setup.ts',
  timeout: 60_000,
  fullyParallel: true,
  workers: 2,
  forbidOnly: !!process.env['CI'],
  reporter: [['list'], ['./src/reporter/index.ts', { outputDir: '.e2e-tmp/e2e-reports' }]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    launchOptions: chromiumLaunchOptions(),
  },
  webServer: {
    command: `node fixtures/server.mjs ${port}`,
    url: `http://127.0.0.1:${port}/index.html`,
    reuseExistingServer: !process.env['CI'],
  },
});
