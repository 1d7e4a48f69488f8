import type { Frame } from '../model/schema';
import { isUserSource } from './user-code';
import { isDocumentStart } from '../text/document-start';

/** Whether a frame is library code (node_modules, a source map's `ignoreList`, bundler runtime). */
export type LibraryFramePredicate = (frame: Frame) => boolean;

/** The default library test: a frame enrichment named a library of, or a dependency or bundler runtime by its source. */
export function isDependencyFrame(frame: Frame): boolean {
  return frame.library !== undefined || !isUserSource(frame.original?.source ?? frame.url);
}

/**
 * The first frame a developer can act on: in user code (enrichment marked it `userCode`), not a library frame, and not
 * line 1 of an HTML page. Undefined when there is none, and the report says so rather than pointing at a library.
 * `isLibraryFrame` lets the formatter's folding rule (node_modules, `ignoreList`) decide what a library frame is.
 */
export function firstUserFrame(frames: readonly Frame[] | undefined, isLibraryFrame: LibraryFramePredicate = isDependencyFrame): Frame | undefined {
  return frames?.find((frame) => frame.userCode === true && !isLibraryFrame(frame) && !isDocumentStart(frame));
}

/**
 * The first frame of a bundle no map explained (enrichment marks it neither the app's nor a library's, and says why it
 * is not mapped): where an error of a build without maps surfaced. Fingerprints keep it as their place, as they did
 * when such frames counted as "your code", and stacks mark it as the frame to look at.
 */
export function firstUnmappedBuildFrame(frames: readonly Frame[] | undefined): Frame | undefined {
  return frames?.find((frame) => frame.userCode === false && frame.library === undefined && !frame.original && frame.unmappedReason !== undefined && /^https?:/i.test(frame.url));
}
