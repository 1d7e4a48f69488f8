import { headline } from '../model/headline';
import type { DaebugEvent, Report } from '../model/schema';
import { firstLine } from '../text/first-line';
import { workflowCommand, type AnnotationProperties } from '../format/github-commands';

/** Where a test is, relative to the repository root. */
export interface TestLocation {
  file: string;
  line: number;
}

export interface AnnotationInput {
  report: Report;
  /** The test's title path, shown as the annotation's title. */
  titlePath: readonly string[];
  test: TestLocation;
  /** A mapped source as a repository file (src/ci/repo-source.ts), or undefined. */
  sourceInRepo: (source: string) => string | undefined;
}

export function unexpectedEvents(report: Pick<Report, 'events'>): DaebugEvent[] {
  return report.events.filter((e) => e.unexpected);
}

/** The error's original position when its file is in the repository (user frames first), else the test's. */
export function annotationLocation(event: DaebugEvent, input: Pick<AnnotationInput, 'test' | 'sourceInRepo'>): Pick<AnnotationProperties, 'file' | 'line' | 'col'> {
  const frames = [...(event.frames ?? []).filter((f) => f.userCode), ...(event.frames ?? []).filter((f) => !f.userCode)];
  for (const frame of frames) {
    const file = frame.original ? input.sourceInRepo(frame.original.source) : input.sourceInRepo(frame.url);
    if (!file) continue;
    const at = frame.original ?? frame;
    return { file, line: at.line, col: at.column };
  }
  if (event.location) {
    const file = input.sourceInRepo(event.location.url);
    if (file) return { file, line: event.location.line, col: event.location.column };
  }
  return { file: input.test.file, line: input.test.line };
}

/**
 * One workflow command per unexpected error of a test: `::error` for what strict mode fails on, `::warning` otherwise
 * (outside strict mode, and for an error the baseline knows, which strict mode does not fail on).
 */
export function testAnnotations(input: AnnotationInput): string[] {
  const title = `daebug: ${input.titlePath.join(' › ')}`;
  return unexpectedEvents(input.report).map((event) =>
    workflowCommand(input.report.test.strict && !event.known ? 'error' : 'warning', { ...annotationLocation(event, input), title }, `${event.known ? 'known (in baseline): ' : ''}${firstLine(headline(event.message), { max: 500 }) || `[${event.source}] (no message)`}`),
  );
}

/** The line that stands for the annotations left out by `maxAnnotations`. */
export function omittedAnnotations(omitted: number, tests: number, max: number, where: string): string {
  return workflowCommand(
    'notice',
    { title: 'daebug: more unexpected errors' },
    `${omitted} more unexpected browser ${omitted === 1 ? 'error' : 'errors'} in ${tests} ${tests === 1 ? 'test' : 'tests'} not annotated (maxAnnotations: ${max}); see ${where}`,
  );
}
