// A page target that sends nothing and answers every command with {}: for tests that feed CDP events to capture code
// by hand (runtime events, network events) and read what the recorder made of them.
import { Target, type TargetListener } from '../../../src/capture/cdp/target';

class FakePage extends Target {
  readonly tapped = true;
  send(): Promise<unknown> {
    return Promise.resolve({});
  }
  enable(): Promise<unknown> {
    return Promise.resolve();
  }
  setNetwork(): void {}
}

const listener: TargetListener = { onEvent() {}, onAttached() {}, onDetached() {} };

/** A page target at http://127.0.0.1/ (target T1, context C1) that nothing listens to. */
export function fakePage(): Target {
  return new FakePage('page', 'http://127.0.0.1/', 'T1', 'C1', undefined, listener);
}
