/**
 * A component that a framework names only in its own words ("Check the render method of `CartList`", Vue's
 * `at <UserCard>`, Angular's "Expression location: AppComponent component") has no frame to point at: its
 * declaration is found by name in the app's original sources, the ones a source map carries. Pure: the caller
 * hands over the sources it already loaded.
 */

export type Framework = 'React' | 'Vue' | 'Angular';

/** A component named by the framework in an event's own text. */
export interface NamedComponent {
  name: string;
  framework: Framework;
}

/** An original source as reports show it (`src/CartList.tsx`), with its text. */
export interface SourceText {
  source: string;
  text: string;
}

/** Where a component is declared: 1-based line. */
export interface ComponentDeclaration {
  source: string;
  line: number;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const REACT_RENDER_METHOD = /Check the render method of `([^`\n]{1,200})`/;
const REACT_OCCURRED_IN = /The above error occurred in the <([A-Za-z_$][\w$.]*)> component/;
const VUE_TRACE = /^\s*at <([A-Za-z][\w.-]*)/m;
const ANGULAR_LOCATION = /Expression location: ([A-Za-z_$][\w$]*) component/;
/** Angular's generated template and factory functions, served as `ng:///AppComponent.js` (no source map). */
const ANGULAR_GENERATED = /\bng:\/\/\/([A-Za-z_$][\w$]*)(?:\.js|\/)/;
const ANGULAR_SUFFIX = /(?:_[A-Za-z][\w$]*?_\d+)?_(?:Template|Factory|HostBindings|ContentQueries|Query)$/;

/**
 * The component the framework names in this text (a message, or a stack whose frames are Angular's generated
 * `ng:///X.js` files): React's "Check the render method of `X`" and "The above error occurred in the <X> component",
 * Vue's first `at <X>` trace line, Angular's "Expression location: X component". Undefined when it names none.
 */
export function componentNamedIn(message: string, stack = ''): NamedComponent | undefined {
  const react = REACT_OCCURRED_IN.exec(message) ?? REACT_RENDER_METHOD.exec(message);
  const reactName = react ? reactComponentName(react[1]!) : undefined;
  if (reactName) return { name: reactName, framework: 'React' };
  const vue = VUE_TRACE.exec(message);
  if (vue && (/\[Vue warn\]/.test(message) || /^\s*at <[^>\n]*>\s*$/m.test(message))) return { name: vue[1]!, framework: 'Vue' };
  const angular = ANGULAR_LOCATION.exec(message);
  if (angular) return { name: angular[1]!, framework: 'Angular' };
  const generated = ANGULAR_GENERATED.exec(stack) ?? ANGULAR_GENERATED.exec(message);
  const name = generated?.[1]?.replace(ANGULAR_SUFFIX, '');
  if (name && IDENTIFIER.test(name)) return { name, framework: 'Angular' };
  return undefined;
}

/** `ForwardRef(PriceList)` and `Memo(PriceList)` name PriceList; `Menu.Item` is declared as `Item`; `Unknown` is no name. */
function reactComponentName(raw: string): string | undefined {
  let name = raw.trim();
  for (let wrapped = /^(?:ForwardRef|Memo|Lazy)\((.*)\)$/.exec(name); wrapped; wrapped = /^(?:ForwardRef|Memo|Lazy)\((.*)\)$/.exec(name)) name = wrapped[1]!;
  name = name.slice(name.lastIndexOf('.') + 1);
  return IDENTIFIER.test(name) && name !== 'Unknown' && name !== 'Anonymous' ? name : undefined;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** `UserCard` as Vue and Angular file names (and Vue templates) write it: `user-card`. */
export function kebab(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1-$2')
    .toLowerCase();
}

/** The declarations a component of this name can have, in the app's source. */
function declarationPatterns(name: string, framework: Framework | undefined): RegExp[] {
  const n = escape(name);
  const end = '(?![\\w$])';
  const patterns = [
    // function PriceList(, function PriceList<T>(, export default function PriceList(
    new RegExp(`\\bfunction(?:\\s*\\*\\s*|\\s+)${n}\\s*[(<]`),
    // const PriceList = (…) =>, const PriceList: FC<Props> = memo(…), const UserCard = defineComponent({; not a lazy import of it
    new RegExp(`\\b(?:const|let|var)\\s+${n}${end}\\s*(?::[^=;\\n]+)?=(?![=>])(?!\\s*(?:React\\.)?lazy\\b|\\s*(?:await\\s+)?import\\b|\\s*require\\b)`),
    // class PriceList extends Component, export class AppComponent
    new RegExp(`\\bclass\\s+${n}${end}`),
  ];
  if (framework === undefined || framework === 'Vue') {
    // Vue's options: defineComponent({ name: 'UserCard' }), defineOptions({ name: 'user-card' })
    const names = [n, escape(kebab(name))].filter((v, i, all) => all.indexOf(v) === i).join('|');
    patterns.push(new RegExp(`\\bname\\s*:\\s*(['"\`])(?:${names})\\1`));
  }
  return patterns;
}

function lineAt(text: string, index: number): number {
  let line = 1;
  for (let at = text.indexOf('\n'); at !== -1 && at < index; at = text.indexOf('\n', at + 1)) line++;
  return line;
}

function baseName(source: string): string {
  const file = source.slice(source.replace(/\\/g, '/').lastIndexOf('/') + 1);
  return file.replace(/\?.*$/, '');
}

/** The file is named after the component: `CartList.tsx`, `UserCard.vue`, `user-card.vue`, `app.component.ts` for AppComponent. */
export function isNamedAfter(source: string, name: string): boolean {
  const stem = baseName(source).replace(/\.[^.]+$/, '').toLowerCase();
  const plain = name.toLowerCase();
  const dashed = kebab(name);
  const angular = /Component$/.test(name) ? `${kebab(name.replace(/Component$/, ''))}.component` : undefined;
  // Angular's older file names keep `.component` when the class has dropped its suffix (`stock-ticker.component.html`).
  const bare = stem.replace(/\.component$/, '');
  return [stem, bare].some((s) => s === plain || s === dashed || s === angular || s.replace(/[-_.]/g, '') === plain);
}

function firstDeclaration(text: string, patterns: readonly RegExp[]): number | undefined {
  let best: number | undefined;
  for (const pattern of patterns) {
    const match = pattern.exec(text);
    if (match && (best === undefined || match.index < best)) best = match.index;
  }
  return best;
}

/**
 * Where the component `name` is declared among `sources`: `function X(`, `const X = `, `class X`, a Vue options
 * object's `name: 'X'` (or its kebab-case form), an Angular `class XComponent`. A file named after the component is
 * searched first; a Vue single-file component found by its file name alone (`UserCard.vue`) is located at its
 * `<script` tag. An Angular class the build renamed (`_AppComponent`) is looked up without the underscore.
 * Undefined when no source declares it.
 */
export function locateComponent(name: string, sources: readonly SourceText[], framework?: Framework): ComponentDeclaration | undefined {
  const clean = framework === 'Angular' ? name.replace(/^_+(?=[A-Za-z])/, '') : name;
  if (!IDENTIFIER.test(clean) && !/^[A-Za-z][\w-]*$/.test(clean)) return undefined;
  const pascal = clean.includes('-') ? clean.replace(/(?:^|-)([a-z0-9])/g, (_, c: string) => c.toUpperCase()) : clean;
  if (!IDENTIFIER.test(pascal)) return undefined;
  const patterns = declarationPatterns(pascal, framework);
  const ordered = [...sources.filter((s) => isNamedAfter(s.source, pascal)), ...sources.filter((s) => !isNamedAfter(s.source, pascal))];
  for (const { source, text } of ordered) {
    const at = firstDeclaration(text, patterns);
    if (at !== undefined) return { source, line: lineAt(text, at) };
  }
  const sfc = sources.find((s) => /\.vue$/i.test(baseName(s.source)) && isNamedAfter(s.source, pascal));
  if (sfc && framework !== 'React' && framework !== 'Angular') {
    const script = sfc.text.search(/<script\b/);
    return { source: sfc.source, line: script === -1 ? 1 : lineAt(sfc.text, script) };
  }
  return undefined;
}
