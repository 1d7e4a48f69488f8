/**
 * Who made a console call: the app's own code, or a framework logging on the app's behalf (Angular's ErrorHandler,
 * React's error-boundary log, Vue's warn handler, React's warnings about a component). An error whose stack is the
 * app's but that Angular logged is not "logged by your code": the line to fix is where it was thrown, and the
 * console call is nowhere in the app. Pure.
 */
import type { DaebugEvent } from '../model/schema';
import { isDependencyFrame } from '../stack/first-user-frame';
import { libraryOf } from '../stack/library';
import { isUserSource } from '../stack/user-code';

export type Logger =
  /** The console call's own frame is in the app. */
  | { by: 'app' }
  /** A framework's own logging: `what` names it in the report's words (`Angular's ErrorHandler`). */
  | { by: 'framework'; framework: 'React' | 'React Router' | 'Vue' | 'Angular'; what: string; warning: boolean }
  /** Some other library's console call. */
  | { by: 'library' };

const ANGULAR_ERROR_HANDLER = /^ERROR\b/;
/**
 * React 18 logs it on its own; React 19 puts it after the Error's own text, and says "one of your React components"
 * when it knows no component's name.
 */
const REACT_BOUNDARY_LOG = /The above error occurred in (?:the <[A-Za-z_$][\w$.]*> component|one of your React components)/;
/** React Router's own log of an error its boundary caught, in development and production alike. */
const REACT_ROUTER_BOUNDARY_LOG = /^React Router caught the following error during render\b/;
/** React's words for its own warnings: React 18 prefixes them with "Warning: ", React 19 names the component. */
export const REACT_WARNING = /^Warning: |Check the render method of `|Check the top-level render call using </;
const VUE_WARN = /^\[Vue warn\]/;

/**
 * Whether the console call itself is the app's: where it was made (`loggedAt`, for a call that logged an Error),
 * else the top frame of the call's own stack. Undefined when neither is known.
 */
export function consoleCallInApp(event: DaebugEvent): boolean | undefined {
  const at = event.loggedAt;
  if (at) {
    const source = at.original?.source ?? at.url;
    return isUserSource(source) && libraryOf(source) === undefined;
  }
  const top = event.frames?.[0];
  if (!top) return undefined;
  return top.userCode === true || (top.userCode === undefined && !isDependencyFrame(top));
}

/** Who made this `console.error` / `console.warn` call; undefined for other events, or when nothing says. */
export function loggedBy(event: DaebugEvent): Logger | undefined {
  if (event.source !== 'console.error' && event.source !== 'console.warn') return undefined;
  const inApp = consoleCallInApp(event);
  const message = event.message;
  // A framework's words are only its own when the call was not the app's (an app may log `ERROR …` itself).
  if (inApp !== true) {
    if (event.source === 'console.error' && ANGULAR_ERROR_HANDLER.test(message)) return { by: 'framework', framework: 'Angular', what: "Angular's ErrorHandler", warning: false };
    if (REACT_BOUNDARY_LOG.test(message)) return { by: 'framework', framework: 'React', what: "React's error-boundary log", warning: false };
    if (REACT_ROUTER_BOUNDARY_LOG.test(message)) return { by: 'framework', framework: 'React Router', what: "React Router's error-boundary log", warning: false };
    if (VUE_WARN.test(message)) return { by: 'framework', framework: 'Vue', what: "Vue's warn handler", warning: true };
    if (REACT_WARNING.test(message)) return { by: 'framework', framework: 'React', what: 'React', warning: true };
  }
  if (inApp === undefined) return undefined;
  if (!inApp && event.loggedAt) {
    // An Error logged from inside a framework's own code with no words of its own: React 19's production
    // `console.error(error)` of an error a boundary caught, React Router's log of a route's error.
    const at = event.loggedAt;
    const library = libraryOf(at.original?.source ?? at.url);
    if (library === 'react-dom') return { by: 'framework', framework: 'React', what: 'React', warning: false };
    if (library === 'react-router' || library === 'react-router-dom' || library?.startsWith('@react-router/')) return { by: 'framework', framework: 'React Router', what: 'React Router', warning: false };
  }
  return inApp ? { by: 'app' } : { by: 'library' };
}

/** `a React warning about your component `PriceList``, `logged by Angular's ErrorHandler`, `logged by your code`. */
export function loggerPhrase(logger: Logger, component?: string): string {
  if (logger.by === 'app') return 'logged by your code';
  if (logger.by === 'library') return 'logged by a library';
  if (logger.warning) return `${/^[AEIOU]/.test(logger.framework) ? 'an' : 'a'} ${logger.framework} warning${component ? ` about your component \`${component}\`` : ''}`;
  return `logged by ${logger.what}`;
}
