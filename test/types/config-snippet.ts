// The README's config: Playwright's defineConfig takes the type of the fixture options in `use`.
import { defineConfig, type DaebugOptions } from 'daebug';

export default defineConfig<DaebugOptions>({
  reporter: [['list'], ['daebug/reporter', { outputDir: 'reports', githubAnnotations: true, maxAnnotations: 10 }]],
  use: { daebugStrict: false },
});
