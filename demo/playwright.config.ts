import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from 'daebug/browser';

const port = Number(process.env['DAEBUG_DEMO_PORT'] ?? 4518);

export default defineConfig({
  testDir: '.',
  timeout: 30_000,
  workers: 2,
  reporter: [['list'], [require.resolve('daebug/reporter'), { outputDir: '../reports' }]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    launchOptions: chromiumLaunchOptions(),
  },
  webServer: {
    command: `node ../fixtures/server.mjs ${port}`,
    url: `http://127.0.0.1:${port}/index.html`,
    reuseExistingServer: !process.env['CI'],
  },
});
