import { buildFixtureApp } from './helpers/build-fixture-app';

/** Runs once per `playwright test`: bundles the source-map fixture app (fixtures/app/dist is git-ignored). */
export default function globalSetup(): void {
  buildFixtureApp();
}
