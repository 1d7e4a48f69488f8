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
  if (/^webpack\/(bootstrap|runtime)|^\(webpack\)|^\/?@vite\/|^vite\//.test(path)) return path.startsWith('vite') || path.includes('@vite') ? 'vite' : 'webpack';
  const base = path.slice(path.lastIndexOf('/') + 1);
  const runtime = KNOWN_RUNTIME.exec(base);
  if (runtime) return runtime[1];
  if (ignoreListed) return base.replace(/\.[cm]?[jt]sx?$/, '') || 'ignore-listed code';
  return undefined;
}

// Framework builds served as files of their own, as CDNs and unbundled apps load them.
const KNOWN_RUNTIME = /^(react-dom|react|scheduler|vue|vue-router|pinia|zone|jquery|preact|angular|rxjs|lit|svelte)(?:[.-](?:development|production|profiling|min|global|runtime|esm-browser|esm-bundler|prod|umd|cjs|esm|bundle|evergreen))*\.m?js$/;

function viteDependency(rest: string): string | undefined {
  const file = /^deps\/([^/]+)\.m?js$/.exec(rest)?.[1];
  if (!file || file.startsWith('chunk-')) return undefined;
  // `react-dom_client` is react-dom's client entry; `@vue_runtime-dom` stands for @vue/runtime-dom.
  const name = file.split('_')[0]!;
  return file.startsWith('@') ? `${name}/${file.split('_')[1] ?? ''}`.replace(/\/$/, '') : name;
}
