import { bundleFixture } from './bundle-fixture';

/**
 * Bundles fixtures/react/src (React 19 from the repository's node_modules) into fixtures/react/dist/app.js with a
 * linked source map. Development mode, so React logs its dev warnings with component stacks; React's own sources
 * stay under `node_modules/` paths in the map.
 */
export function buildReactApp(): void {
  bundleFixture('react', 'src/main.tsx', { jsx: 'automatic', define: { 'process.env.NODE_ENV': '"development"' } });
}
