import { buildFixtureApp } from './helpers/build-fixture-app';
import { buildReactApp } from './helpers/build-react-app';

/** Runs once per `playwright test`: bundles the fixture apps (their dist/ folders are git-ignored). */
export default function globalSetup(): void {
  buildFixtureApp();
  buildReactApp();
}
