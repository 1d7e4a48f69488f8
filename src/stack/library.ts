/**
 * Which library a frame's source belongs to, so reports can fold its frames into one line
 * (`… 14 frames in react-dom`). A source is library code when it sits under `node_modules` (named by its
 * package), is a known framework runtime served as its own file (`react-dom.development.js`, `vue.global.js`,
 * `zone.js`), or is a bundler runtime. Sources on a source map's ignoreList are library code too; the caller
 * knows that and names them with `libraryOf(source, true)`.
 */
export function libraryOf(source: string, ignoreListed = false): string | undefined {
  const path = source.split(/[?#]/, 1)[0]!.replace(/\\/g, '/');
  const inModules = /(?:^|\/)node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)(?:\/(.*))?$/.exec(path);
  if (inModules) {
    const name = inModules[1]!;
    // Vite pre-bundles dependencies into node_modules/.vite/deps/<package>_<entry>.js.
    if (name === '.vite' || name === '.cache') return viteDependency(inModules[2] ?? '') ?? 'dependencies';
    return name;
  }
  const outsideRoot = VITE_FS.exec(path);
  if (outsideRoot) return workspacePackage(outsideRoot[1]!);
  if (/^webpack\/(bootstrap|runtime)|^\(webpack\)|^\/?@vite\/|^vite\//.test(path)) return path.startsWith('vite') || path.includes('@vite') ? 'vite' : 'webpack';
  const bazel = BAZEL_OUTPUT.exec(path);
  if (bazel) return bazelPackage(bazel[1]!);
  const base = path.slice(path.lastIndexOf('/') + 1);
  const runtime = KNOWN_RUNTIME.exec(base);
  if (runtime) return runtime[1];
  if (ignoreListed) return base.replace(/\.[cm]?[jt]sx?$/, '') || 'ignore-listed code';
  return undefined;
}

/**
 * Vite's dev server serves a file outside the app's root as `/@fs/<absolute path>`: a workspace's other package (a
 * framework's runtime linked from its monorepo, SvelteKit's `packages/kit/src/runtime/`), never the app's own source.
 */
const VITE_FS = /(?:^|\/)@fs\/(.*)$/;

/** Whether Vite served this URL from outside the app's root (`/@fs/…`). */
export function isOutsideAppRoot(url: string): boolean {
  return VITE_FS.test(url.split(/[?#]/, 1)[0]!);
}

/** `…/packages/kit/src/runtime/client.js` is `kit`; another file outside the root by its first named folder from the end. */
function workspacePackage(rest: string): string {
  const inPackages = /(?:^|\/)packages\/((?:@[^/]+\/)?[^/]+)\//.exec(rest);
  if (inPackages) return inPackages[1]!;
  const folders = rest.split('/').slice(0, -1).filter((f) => f && !/^(?:src|lib|dist|esm|cjs|runtime)$/.test(f));
  return folders.pop() ?? 'outside the app';
}

// Framework builds served as files of their own, as CDNs and unbundled apps load them.
const KNOWN_RUNTIME = /^(react-dom|react|scheduler|vue|vue-router|pinia|zone|jquery|preact|angular|rxjs|lit|svelte)(?:[.-](?:development|production|profiling|min|global|runtime|esm-browser|esm-bundler|prod|umd|cjs|esm|bundle|evergreen))*\.m?js$/;

/**
 * A library built with Bazel (Angular's packages) ships maps whose sources are its build folder,
 * `../../../../../k8-fastbuild-ST-fdfa778d11ba/bin/packages/core/src/error_handler.ts`; a bundler that follows those
 * maps (esbuild, Vite with vendor maps) writes that path into the app's map, with no `node_modules` left in it.
 */
const BAZEL_OUTPUT = /(?:^|\/)(?:bazel-out\/)?[a-z0-9_]+-(?:fastbuild|opt|dbg)(?:-ST-[0-9a-f]+)?\/bin\/(.+)$/;

/** `packages/core/src/…` in Angular's repository is `@angular/core`; another Bazel-built library by its first named folder. */
function bazelPackage(rest: string): string {
  const angular = /^packages\/([a-z][a-z0-9-]*)\//.exec(rest);
  if (angular) return `@angular/${angular[1]}`;
  const folders = rest.split('/').slice(0, -1);
  return folders.find((f) => !/^(?:src|lib|packages|dist)$/.test(f)) ?? 'a Bazel-built library';
}

function viteDependency(rest: string): string | undefined {
  const file = /^deps\/([^/]+)\.m?js$/.exec(rest)?.[1];
  if (!file || file.startsWith('chunk-')) return undefined;
  // `react-dom_client` is react-dom's client entry; `@vue_runtime-dom` stands for @vue/runtime-dom.
  const name = file.split('_')[0]!;
  return file.startsWith('@') ? `${name}/${file.split('_')[1] ?? ''}`.replace(/\/$/, '') : name;
}
