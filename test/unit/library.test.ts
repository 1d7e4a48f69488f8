import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isOutsideAppRoot, libraryOf } from '../../src/stack/library';

describe('libraryOf', () => {
  it('names the node_modules package (scoped, pnpm, vite pre-bundled)', () => {
    assert.equal(libraryOf('../node_modules/react-dom/cjs/react-dom-client.development.js'), 'react-dom');
    assert.equal(libraryOf('node_modules/@vue/runtime-core/dist/runtime-core.esm-bundler.js'), '@vue/runtime-core');
    assert.equal(libraryOf('/repo/node_modules/.pnpm/react@19.0.0/node_modules/react/index.js'), 'react');
    assert.equal(libraryOf('http://127.0.0.1:5173/node_modules/.vite/deps/react-dom_client.js?v=1'), 'react-dom');
    assert.equal(libraryOf('C:\\app\\node_modules\\zone.js\\fesm2015\\zone.js'), 'zone.js');
  });

  it('knows framework runtimes served as files of their own and bundler runtimes', () => {
    assert.equal(libraryOf('https://unpkg.com/react-dom@18/umd/react-dom.development.js'), 'react-dom');
    assert.equal(libraryOf('http://h/js/vue.global.prod.js'), 'vue');
    assert.equal(libraryOf('webpack/runtime/jsonp chunk loading'), 'webpack');
  });

  it("knows a Bazel-built library by the build folder its shipped maps name (Angular's packages)", () => {
    assert.equal(libraryOf('../../../../k8-fastbuild-ST-fdfa778d11ba/bin/packages/core/src/error_handler.ts'), '@angular/core');
    assert.equal(libraryOf('k8-fastbuild-ST-fdfa778d11ba/bin/packages/common/http/src/fetch.ts'), '@angular/common');
    assert.equal(libraryOf('bazel-out/darwin_arm64-opt/bin/src/material/button/button.ts'), 'material');
    assert.equal(libraryOf('src/app/k8-fastbuild-notes/bin.ts'), undefined);
  });

  it('leaves the app alone, unless its map lists the source as ignored', () => {
    assert.equal(libraryOf('src/cart.ts'), undefined);
    assert.equal(libraryOf('http://h/app/dist/app.js'), undefined);
    assert.equal(libraryOf('lib/framework.js', true), 'framework');
  });
});

describe('libraryOf, files Vite serves from outside the app', () => {
  it("names a workspace's other package served through /@fs/ by its folder, and leaves the app's own files alone", () => {
    assert.equal(libraryOf('http://127.0.0.1:5173/@fs/work/kit/packages/kit/src/runtime/client/client.js'), 'kit');
    assert.equal(libraryOf('/@fs/repo/packages/react-router/lib/router.ts'), 'react-router');
    assert.equal(libraryOf('http://127.0.0.1:5173/@fs/repo/node_modules/.vite/deps/react-dom_client.js'), 'react-dom');
    assert.equal(libraryOf('http://127.0.0.1:5173/src/App.tsx'), undefined);
    assert.equal(isOutsideAppRoot('http://127.0.0.1:5173/@fs/repo/packages/x/a.js?v=1'), true);
    assert.equal(isOutsideAppRoot('http://127.0.0.1:5173/src/fs/a.js'), false);
  });
});
