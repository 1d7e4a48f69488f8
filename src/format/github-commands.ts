/**
 * GitHub Actions workflow commands (`::error file=…,line=…,title=…::message`), escaped as the runner reads them:
 * https://github.com/actions/toolkit/blob/main/packages/core/src/command.ts
 */

export type WorkflowCommandKind = 'error' | 'warning' | 'notice';

export interface AnnotationProperties {
  /** Path relative to the repository root. */
  file?: string;
  line?: number;
  col?: number;
  title?: string;
}

/** Escapes a command's message: `%`, CR and LF. */
export function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Escapes a property value: as data, plus `:` and `,`, which end a value. */
export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

export function workflowCommand(kind: WorkflowCommandKind, properties: AnnotationProperties, message: string): string {
  const pairs = (['file', 'line', 'col', 'title'] as const)
    .filter((key) => properties[key] !== undefined && properties[key] !== '')
    .map((key) => `${key}=${escapeProperty(String(properties[key]))}`);
  return `::${kind}${pairs.length ? ` ${pairs.join(',')}` : ''}::${escapeData(message)}`;
}
