import { bundleFixture } from './bundle-fixture';

/**
 * Bundles fixtures/http-app/src with its stand-in library fixtures/http-app/node_modules/fake-http into
 * fixtures/http-app/dist/app.js, minified, with a linked source map whose sources keep the `node_modules/` path.
 */
export function buildHttpApp(): void {
  bundleFixture('http-app', 'src/main.ts', { minify: true, target: 'es2020' });
}
