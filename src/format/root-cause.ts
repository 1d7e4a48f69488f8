import { headline } from '../model/headline';
import { reactBoundaryLogAfter } from '../diagnosis/explains';
import { rankRootCause, type RootCause } from '../diagnosis/rank';
import { unplacedAt } from '../diagnosis/line-to-fix';
import { browserDefaultPlace } from '../model/default-place';
import { formatClock } from '../model/classify';
import { failedLoadOf, failedLoadText, isPlacedLoad } from '../model/failed-load';
import { locationText } from '../model/position-text';
import type { Attempt, DaebugEvent, Job } from '../model/schema';
import { causalLinksOf, causedByNote, explainsNote } from './causal-links';
import { componentPlace } from './component-note';
import { foundAdvice, foundNote, initiatorNote, unplacedNote } from './found-note';
import { loggedWhere } from './logged-where';
import { eventInfo } from './event-block';
import { code, fence } from './fence';
import { firstUserFrame, frameWhere } from './frames';
import { unexpectedNumbers } from './fix-order';
import { eventIdentity } from './repeats';
import { UNEXPECTED_LISTED } from './truncate';
import { loggedBy, loggerPhrase } from '../diagnosis/logged-by';
import { componentNamedIn } from '../stack/locate-component';
import { warningEntries, warningPlace, WARNINGS_LISTED, type WarningEntry } from './warnings';

/** A framework's own words about where an error happened, read from what it logged. */
export interface FrameworkContext {
  framework: 'React' | 'Vue' | 'Angular';
  /** The component the framework named, without brackets. */
  component?: string | undefined;
  /** The line it was read from. */
  evidence: string;
}

const REACT = /The above error occurred in the <([A-Za-z_$][\w$.]*)> component/;
const VUE = /^\s*at <([A-Za-z][\w.]*)/m;
const ANGULAR = /^ERROR\b/;

/**
 * React's "The above error occurred in the <X> component", Vue's `at <X>` trace, Angular's `ERROR` prefix, read
 * from the event's own text: a component named by a neighbour is that neighbour's, not this event's. The one
 * exception is React 18's boundary log, a `console.error` of its own right after the error it is about.
 */
export function frameworkContext(event: DaebugEvent, events: readonly DaebugEvent[] = []): FrameworkContext | undefined {
  const react = REACT.exec(event.message) ?? REACT.exec(reactBoundaryLogAfter(event, events)?.message ?? '');
  if (react) return { framework: 'React', component: react[1], evidence: 'named by React\'s "The above error occurred in the <…> component"' };
  const vue = VUE.exec(event.message);
  if (vue) return { framework: 'Vue', component: vue[1], evidence: "named by Vue's component trace (`at <…>`)" };
  if (event.source === 'console.error' && ANGULAR.test(event.message)) return { framework: 'Angular', evidence: "logged by Angular's ErrorHandler (`ERROR`)" };
  return undefined;
}

/**
 * `- React component `<PriceTag>` at `src/PriceTag.tsx:3` (found by name): named by …`: the framework's component
 * as the event's own text (or React 18's boundary log about it) names it, and where enrichment located it.
 */
function componentLine(event: DaebugEvent, events: readonly DaebugEvent[]): string | undefined {
  const context = frameworkContext(event, events);
  const own = event.component;
  if (!context && !own) return undefined;
  const name = context?.component ?? own?.name;
  const located = [own, reactBoundaryLogAfter(event, events)?.component].find((c) => c !== undefined && (c.name === name || name?.endsWith(`.${c.name}`)));
  const component = name ? ` component ${code(`<${name}>`)}${located ? ` ${componentPlace(located)}` : ''}` : '';
  const evidence = context?.evidence ?? (own?.foundBy === 'enclosing' ? 'the frame in your code is inside it' : 'named in its own text');
  return `- ${context?.framework ?? own!.framework}${component}: ${evidence}`;
}

function during(event: DaebugEvent, report: Attempt): string {
  const job: Job | undefined = event.jobId ? report.jobs.find((j) => j.id === event.jobId) : undefined;
  // An eval's code is only named by its start: code, like page text, stays inside the transcript's fences.
  if (job) return job.kind === 'job' ? `during job ${code(job.title ?? job.id)}` : `during the \`daebug.eval\` in ${code(job.realm)} that started at ${formatClock(Date.parse(job.startedAt))}`;
  if (event.step) return `during step ${code(event.step)}`;
  const time = Date.parse(event.time);
  const navigation = report.events.filter((e) => e.source === 'navigation' && e.realm === event.realm && Date.parse(e.time) <= time).pop();
  return navigation ? `in the background, after ${code(event.realm)} loaded ${code(navigation.message.slice(0, 200))}` : `in the background of ${code(event.realm)}`;
}

/** The first concrete suggestion of the event's hint, else what the location says to do. */
function firstThingToTry(event: DaebugEvent, where: string | undefined): string {
  // With no frame in the app, a line found in its source by the event's own evidence is the line to open first.
  const found = where ? '' : foundAdvice(event);
  if (found) return found;
  const check = event.hint?.split('\n').find((line) => line.startsWith('- '));
  if (check) return check.length > 400 ? `${check.slice(2, 400)}…` : check.slice(2);
  if (where) return `Open ${code(where)} and find why it throws here; the stack below shows how it was reached.`;
  return 'No frame of its stack is in your code: find the app code that called into the library (the JSON report keeps the raw frames), or turn on `daebugAsyncStacks` to see what started the work.';
}

/** `unexpected error 3 below`: its number in the Unexpected errors section (src/format/fix-order.ts). */
function entryName(event: DaebugEvent, numbers: ReadonlyMap<string, number>): string {
  const number = numbers.get(eventIdentity(event));
  if (number === undefined) return 'an unexpected error';
  return number <= UNEXPECTED_LISTED ? `unexpected error ${number} below` : `unexpected error ${number} (in the JSON report)`;
}

/** Independent problems listed in the Root cause block at most; the Unexpected errors section has them all. */
const ORDER_LISTED = 8;

/**
 * The Warnings section's entries that are problems of their own: a warning an error explains (Vue's "Unhandled error
 * during execution of mounted hook" before the error it rethrows) is that error's, not another problem. Each with its
 * number in that section.
 */
function independentWarnings(report: Attempt): Array<{ entry: WarningEntry; number: number }> {
  const links = causalLinksOf(report.events);
  return warningEntries(report.events)
    .map((entry, i) => ({ entry, number: i + 1 }))
    .filter(({ entry }) => !entry.members.some((m) => links.causedBy.has(eventIdentity(m)) || links.causes.has(eventIdentity(m))));
}

/**
 * The resources the app's own code names that the browser could not load (a broken `<img src>`: src/model/failed-load.ts),
 * one per URL: no error explains them and they explain none, so each is a problem of its own. They are not unexpected
 * errors (strict mode does not fail on them, as on no failed request by default); a reader who stops at N must still
 * not miss them.
 */
function placedLoads(events: readonly DaebugEvent[]): DaebugEvent[] {
  const byUrl = new Map<string, DaebugEvent>();
  for (const event of events) {
    const url = isPlacedLoad(event) ? failedLoadOf(event)!.url : undefined;
    if (url !== undefined && !byUrl.has(url)) byUrl.set(url, event);
  }
  return [...byUrl.values()];
}

/** `a Vue warning about your component `UserCard``, `warning logged by your code`: a warning's kind, as the ranking says an error's. */
function warningKind(event: DaebugEvent): string {
  const logger = loggedBy(event);
  if (logger?.by === 'framework') return loggerPhrase(logger, event.component?.name ?? componentNamedIn(event.message, event.stack)?.name);
  if (logger?.by === 'app') return 'warning logged by your code';
  // A framework's warning in words of its own (Angular's sanitizer) names the component it is about.
  const component = event.component;
  if (component) return `${component.framework === 'Angular' ? 'an' : 'a'} ${component.framework} warning about your component \`${component.name}\``;
  return logger?.by === 'library' ? 'warning logged by a library' : 'warning';
}

/**
 * `- 3 independent problems, fix each: …` and the order to look at them, each by its number below, its kind and its
 * place: the block names one error first, but when nothing ties the others to it, it must not read as the only one.
 * The warnings that are not unexpected errors are problems too, after them, and then the resources the app's code names
 * that could not be loaded: a reader who stops at N misses none.
 */
function problemOrder(cause: RootCause, numbers: ReadonlyMap<string, number>, warnings: ReadonlyArray<{ entry: WarningEntry; number: number }>, loads: readonly DaebugEvent[]): string[] {
  const total = cause.independent + warnings.length + loads.length;
  const lines = [
    `- ${total} independent problems, fix each: none of them explains another, so fixing one will not fix the others. Look at them in this order (the first for the reason under Chosen):`,
  ];
  const problems = [
    ...cause.order.map(({ event, kind }) => {
      // The line to fix first: the app's own frame, else the component the framework named (the Warnings' order).
      const frame = firstUserFrame(event.frames);
      return { kind, place: frame ? `at ${code(frameWhere(frame))}` : warningPlace(event), name: `${entryName(event, numbers)}${event === cause.event ? ' (this one)' : ''}` };
    }),
    // A warning's place is the Warnings section's: its component and where it is used come before a frame of the app.
    ...warnings.map(({ entry, number }) => ({ kind: warningKind(entry.event), place: warningPlace(entry.event), name: number <= WARNINGS_LISTED ? `warning ${number} below` : `warning ${number} (in the JSON report)` })),
    // A resource the app's code names that the browser could not load: written in full in the transcript only.
    ...loads.map((event) => ({ kind: code(failedLoadText(failedLoadOf(event)!)), place: foundNote(event), name: 'failed load in the transcript' })),
  ];
  for (const [index, { kind, place, name }] of problems.slice(0, ORDER_LISTED).entries()) {
    lines.push(`  ${index + 1}. ${name}: ${kind}${place ? `; ${place}` : ''}`);
  }
  if (problems.length > ORDER_LISTED) lines.push(`  … ${problems.length - ORDER_LISTED} more below`);
  return lines;
}

/**
 * A short "Root cause" block for the error ranked first (src/diagnosis/rank.ts): what, where (the original file:line
 * and function, the framework's component), when (the job or step), how it was chosen and what to try first.
 */
export function rootCauseSection(report: Attempt, h: string, cause = rankRootCause(report), numbers = unexpectedNumbers(report, cause)): string[] {
  if (!cause) return [];
  const event = cause.event;
  // An Error rethrown with a `cause`, or a Promise.any's AggregateError, may have no frame of its own in the app:
  // the line to fix is then where its cause or first member was thrown.
  const own = browserDefaultPlace(event) ? undefined : firstUserFrame(event.frames);
  const part = own ? undefined : [...(event.cause ?? []), ...(event.aggregate ?? [])].find((p) => firstUserFrame(p.frames));
  const frame = own ?? firstUserFrame(part?.frames);
  // Stacks that were never mapped (no frames as data) still have the browser's own location, unless it is only the
  // browser's default place (the first line of the realm's script), which is no line to fix.
  const location = event.frames?.length || browserDefaultPlace(event) ? undefined : locationText(event.location);
  const where = frame ? frameWhere(frame) : location;
  const lines = ['', `${h}# Root cause`, '', `The ${code(event.source)} in ${code(event.realm)} at ${event.ts}, ${entryName(event, numbers)}:`, ''];
  if (where) {
    // A library's console call is said by who made it: its place inside the library tells nothing.
    const logged = loggedWhere(event);
    const loggedAt = !logged ? '' : 'by' in logged ? `; ${logged.by}` : `; logged at ${code(`${logged.at.source}:${logged.at.line}`)}`;
    // An Error's name is the page's text: shown only when it is a plain identifier (`TypeError`, `HttpError`).
    const name = part?.name && /^[A-Za-z_$][\w$]{0,59}$/.test(part.name) ? ` ${code(part.name)}` : '';
    const via = part ? ` (where its ${event.cause?.includes(part) ? 'cause' : 'member'}${name} was thrown)` : '';
    lines.push(`- Where: ${code(where)}${via}${loggedAt}`);
  } else {
    const unplaced = unplacedAt(event, report.events);
    const top = unplaced ? undefined : event.frames?.[0];
    const found = foundNote(event) || initiatorNote(event, report.events);
    const none = unplaced ? unplacedNote(unplaced, { plain: false }) : 'no frame of its stack is in your code';
    lines.push(`- Where: ${none}${found ? `; ${found}` : ''}${top ? `; it surfaced in ${code(frameWhere(top))}` : ''}`);
  }
  const component = componentLine(event, report.events);
  if (component) lines.push(component);
  lines.push(`- When: ${during(event, report)}`);
  const links = causalLinksOf(report.events);
  const number = (e: DaebugEvent) => numbers.get(eventIdentity(e));
  const causedBy = causedByNote(event, links, number);
  if (causedBy) lines.push(`- Caused by: ${causedBy.replace(/^caused by /, '')}`);
  const explains = explainsNote(event, links, number);
  if (explains) lines.push(`- Explains: ${explains.replace(/^→ explains /, '')}`);
  // The reason is daebug's own words only (no page or test text), so it stands outside a fence.
  lines.push(`- Chosen: ${cause.reason}`);
  const warnings = independentWarnings(report);
  const loads = placedLoads(report.events);
  if (cause.independent + warnings.length + loads.length > 1) lines.push(...problemOrder(cause, numbers, warnings, loads));
  // What the page said stays inside a fence, like all page text: it must not read as the report's own words.
  const message = headline(event.message).slice(0, 300);
  lines.push('', fence(eventInfo(event), `${message}\n\nTry first: ${firstThingToTry(event, frame?.original ? `${frame.original.source}:${frame.original.line}` : where)}`));
  return lines;
}
