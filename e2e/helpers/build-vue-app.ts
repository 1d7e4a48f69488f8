import { bundleFixture } from './bundle-fixture';

/**
 * Bundles fixtures/vue/src (Vue 3.5's runtime from the repository's node_modules) into fixtures/vue/dist/app.js with a
 * linked source map. Development mode, so Vue logs its `[Vue warn]`s with component traces; Vue's own sources stay
 * under `node_modules/` paths in the map.
 */
export function buildVueApp(): void {
  bundleFixture('vue', 'src/main.ts', {
    define: {
      'process.env.NODE_ENV': '"development"',
      __VUE_OPTIONS_API__: 'true',
      __VUE_PROD_DEVTOOLS__: 'false',
      __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: 'false',
    },
  });
}
