import { formatClock } from '../model/classify';
import type { Attempt, DaebugEvent, Job } from '../model/schema';
import { eventInfo } from './event-block';
import { code, fence } from './fence';
import { firstUserFrame, frameWhere } from './frames';

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

/** React's "The above error occurred in the <X> component", Vue's `at <X>` trace, Angular's `ERROR` prefix. */
export function frameworkContext(event: DaebugEvent, neighbours: readonly DaebugEvent[]): FrameworkContext | undefined {
  for (const candidate of [event, ...neighbours]) {
    const react = REACT.exec(candidate.message);
    if (react) return { framework: 'React', component: react[1], evidence: 'named by React\'s "The above error occurred in the <…> component"' };
  }
  for (const candidate of [event, ...neighbours]) {
    const vue = VUE.exec(candidate.message);
    if (vue && (candidate === event || candidate.message.includes('[Vue warn]'))) return { framework: 'Vue', component: vue[1], evidence: "named by Vue's component trace (`at <…>`)" };
  }
  if (event.source === 'console.error' && ANGULAR.test(event.message)) return { framework: 'Angular', evidence: "logged by Angular's ErrorHandler (`ERROR`)" };
  return undefined;
}

/** The events just around this one in the same realm: frameworks log their context right before or after an error. */
function neighboursOf(event: DaebugEvent, events: readonly DaebugEvent[]): DaebugEvent[] {
  const at = events.indexOf(event);
  if (at === -1) return [];
  return [...events.slice(Math.max(0, at - 2), at), ...events.slice(at + 1, at + 3)].filter((e) => e.realm === event.realm);
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
  const check = event.hint?.split('\n').find((line) => line.startsWith('- '));
  if (check) return check.length > 400 ? `${check.slice(2, 400)}…` : check.slice(2);
  if (where) return `Open ${code(where)} and find why it throws here; the stack below shows how it was reached.`;
  return 'No frame of its stack is in your code: find the app code that called into the library (the JSON report keeps the raw frames), or turn on `daebugAsyncStacks` to see what started the work.';
}

/**
 * A short "Root cause" block for the error that failed the test, or the first unexpected one: what, where (the
 * original file:line and function, the framework's component), when (the job or step) and what to try first.
 */
export function rootCauseSection(report: Attempt, h: string): string[] {
  const event = report.events.find((e) => e.unexpected);
  if (!event) return [];
  // An Error rethrown with a `cause`, or a Promise.any's AggregateError, may have no frame of its own in the app:
  // the line to fix is then where its cause or first member was thrown.
  const own = firstUserFrame(event.frames);
  const part = own ? undefined : [...(event.cause ?? []), ...(event.aggregate ?? [])].find((p) => firstUserFrame(p.frames));
  const frame = own ?? firstUserFrame(part?.frames);
  // Stacks that were never mapped (no frames as data) still have the browser's own location.
  const location = !event.frames?.length && event.location ? `${event.location.url}:${event.location.line}:${event.location.column}` : undefined;
  const where = frame ? frameWhere(frame) : location;
  const lines = ['', `${h}# Root cause`, '', `The ${code(event.source)} in ${code(event.realm)} at ${event.ts}, unexpected error 1 below:`, ''];
  if (where) {
    const logged = event.loggedAt?.original ?? (event.loggedAt ? { source: event.loggedAt.url, line: event.loggedAt.line } : undefined);
    const loggedAt = logged ? `; logged at ${code(`${logged.source}:${logged.line}`)}` : '';
    // An Error's name is the page's text: shown only when it is a plain identifier (`TypeError`, `HttpError`).
    const name = part?.name && /^[A-Za-z_$][\w$]{0,59}$/.test(part.name) ? ` ${code(part.name)}` : '';
    const via = part ? ` (where its ${event.cause?.includes(part) ? 'cause' : 'member'}${name} was thrown)` : '';
    lines.push(`- Where: ${code(where)}${via}${loggedAt}`);
  } else {
    const top = event.frames?.[0];
    lines.push(`- Where: no frame of its stack is in your code${top ? `; it surfaced in ${code(frameWhere(top))}` : ''}`);
  }
  const context = frameworkContext(event, neighboursOf(event, report.events));
  if (context) lines.push(`- ${context.framework}${context.component ? ` component ${code(`<${context.component}>`)}` : ''}: ${context.evidence}`);
  lines.push(`- When: ${during(event, report)}`);
  // What the page said stays inside a fence, like all page text: it must not read as the report's own words.
  const message = event.message.split('\n', 1)[0]!.slice(0, 300);
  lines.push('', fence(eventInfo(event), `${message}\n\nTry first: ${firstThingToTry(event, frame?.original ? `${frame.original.source}:${frame.original.line}` : where)}`));
  return lines;
}
