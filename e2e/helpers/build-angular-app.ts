import { bundleFixture } from './bundle-fixture';

/**
 * Bundles fixtures/angular/src (Angular 22 from the repository's node_modules) into fixtures/angular/dist/app.js with
 * a linked source map. JIT and development mode, as `ng serve` runs an app's tests: templates are compiled in the
 * browser and their functions run from `ng:///StockTicker.js`, with no map, so NG0100 and the sanitizer warning
 * have no frame in the app's code; HttpClient runs on fetch (`withFetch()`), so a failed request's initiator stack
 * is Angular's and RxJS's alone.
 */
export function buildAngularApp(): void {
  bundleFixture('angular', 'src/main.ts', {
    tsconfigRaw: { compilerOptions: { experimentalDecorators: true, useDefineForClassFields: false } },
  });
}
