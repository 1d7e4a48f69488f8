/**
 * The package's main entry (`require('daebug')`, and dist/index.mjs for ES modules): src/index.ts and everything a
 * worker reaches from it, loaded from one bundle with its compiled code cached (src/io/bundle-loader.ts). The bundle is
 * dist/bundle/index.js, two folders down like every module it holds, so paths a module finds from its own folder
 * (src/stack/user-code.ts) are the same in the bundle.
 */
import path from 'node:path';
import { loadBundle } from './io/bundle-loader';

export = loadBundle<typeof import('./index')>(path.join(__dirname, 'bundle', 'index.js'), () => require('./index') as typeof import('./index'));
