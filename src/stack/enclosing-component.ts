/**
 * An error thrown in a component's own method (Angular's `ngOnInit`, a React class component's `componentDidMount`,
 * a Vue options object's `mounted()`, an async `restore()`) names no component in its text, yet the frame's
 * enclosing class or object is the component. This reads the original source around the frame: the blocks that
 * enclose the line, innermost first, and the first that is a component (a class decorated with `@Component(`, a class
 * that `extends React.Component`, `Component` or `PureComponent`, an object passed to `defineComponent(`). Pure: the
 * caller hands over the source text it already loaded. A text scan, not a parser: strings, template literals and
 * comments are skipped so that their braces do not count.
 */
import type { Framework } from './locate-component';

export interface EnclosingComponent {
  name: string;
  framework: Framework;
  /** 1-based line of its declaration (`export class StockTicker`, `export const BrokenList = defineComponent(`). */
  line: number;
}

/** Sources longer than this are not scanned: a bundle's source, not a component's file. */
const MAX_TEXT = 500_000;
const IDENTIFIER = '[A-Za-z_$][\\w$]*';
const CLASS_HEADER = new RegExp(`\\bclass\\s+(${IDENTIFIER})([^{};]*)$`);
const REACT_BASE = /\bextends\s+(?:React\.)?(?:Pure)?Component\b/;
const DEFINE_COMPONENT = new RegExp(`(?:\\b(?:const|let|var)\\s+(${IDENTIFIER})\\s*=\\s*)?\\bdefineComponent\\s*\\(\\s*$`);
const VUE_NAME = /^\s*name\s*:\s*['"]([A-Za-z][\w-]*)['"]/m;

/** The offsets of the `{` of every block open at `offset`, outermost first. */
function openBlocks(text: string, offset: number): number[] {
  const blocks: number[] = [];
  // What a `}` closes: a block (its `{` offset) or a template literal's `${`, after which the literal resumes.
  const stack: Array<{ kind: 'block'; at: number } | { kind: 'expression' }> = [];
  let i = 0;
  const skipString = (quote: string) => {
    for (i++; i < text.length && text[i] !== quote && text[i] !== '\n'; i++) if (text[i] === '\\') i++;
  };
  // A template literal up to its end or its next `${`; true when it stopped at `${`.
  const skipTemplate = (): boolean => {
    for (i++; i < text.length; i++) {
      if (text[i] === '\\') i++;
      else if (text[i] === '`') return false;
      else if (text[i] === '$' && text[i + 1] === '{') {
        i++;
        return true;
      }
    }
    return false;
  };
  for (; i < offset && i < text.length; i++) {
    const c = text[i];
    const next = text[i + 1];
    if (c === '/' && next === '/') i = text.indexOf('\n', i) === -1 ? text.length : text.indexOf('\n', i);
    else if (c === '/' && next === '*') i = text.indexOf('*/', i + 2) === -1 ? text.length : text.indexOf('*/', i + 2) + 1;
    else if (c === '"' || c === "'") skipString(c);
    else if (c === '`') {
      if (skipTemplate()) stack.push({ kind: 'expression' });
    } else if (c === '{') stack.push({ kind: 'block', at: i });
    else if (c === '}') {
      const closed = stack.pop();
      if (closed?.kind === 'expression' && skipTemplate()) stack.push({ kind: 'expression' });
    }
  }
  for (const entry of stack) if (entry.kind === 'block') blocks.push(entry.at);
  return blocks;
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

function offsetOfLine(text: string, line: number): number | undefined {
  let at = 0;
  for (let n = 1; n < line; n++) {
    const next = text.indexOf('\n', at);
    if (next === -1) return undefined;
    at = next + 1;
  }
  return at;
}

/** Whether the class whose `class` keyword is at `at` is decorated with `@Component(…)` (Angular). */
function hasComponentDecorator(text: string, at: number): boolean {
  let end = at;
  const before = text.slice(Math.max(0, at - 40), at);
  const modifiers = /(?:\b(?:export|default|abstract)\s+)+$/.exec(before);
  if (modifiers) end -= modifiers[0].length;
  while (end > 0 && /\s/.test(text[end - 1]!)) end--;
  if (text[end - 1] !== ')') return false;
  // Back to the `(` that opens the decorator's arguments, over the object and template inside it.
  let depth = 0;
  for (let i = end - 1; i >= 0 && end - i < 20_000; i--) {
    const c = text[i];
    if (c === ')') depth++;
    else if (c === '(' && --depth === 0) return /@Component\s*$/.test(text.slice(Math.max(0, i - 20), i));
  }
  return false;
}

/**
 * The component whose class or options object encloses the 1-based `line` of `text`, innermost first; undefined when
 * no enclosing block is one. `fileName` names a `defineComponent(` object that has neither a variable nor a `name`.
 */
export function enclosingComponent(text: string, line: number, fileName?: string): EnclosingComponent | undefined {
  if (text.length > MAX_TEXT) return undefined;
  const offset = offsetOfLine(text, line);
  if (offset === undefined) return undefined;
  for (const brace of openBlocks(text, offset).reverse()) {
    const header = text.slice(Math.max(0, brace - 400), brace);
    const cls = CLASS_HEADER.exec(header);
    if (cls) {
      const keyword = brace - header.length + cls.index;
      const name = cls[1]!;
      if (REACT_BASE.test(cls[2]!)) return { name, framework: 'React', line: lineAt(text, keyword) };
      if (hasComponentDecorator(text, keyword)) return { name, framework: 'Angular', line: lineAt(text, keyword) };
      continue;
    }
    const vue = DEFINE_COMPONENT.exec(header);
    if (vue) {
      const at = brace - header.length + vue.index;
      const own = VUE_NAME.exec(text.slice(brace + 1, brace + 2000))?.[1];
      const name = vue[1] ?? own ?? fileName?.replace(/^.*[\\/]/, '').replace(/\.[^.]+$/, '');
      if (name && new RegExp(`^${IDENTIFIER}$|^[A-Za-z][\\w-]*$`).test(name)) return { name, framework: 'Vue', line: lineAt(text, at) };
    }
  }
  return undefined;
}
