/**
 * Version of the capture record the fixture attaches to each test (`CaptureRecord` in src/model/record.ts).
 * The reporter reads only this version; bump both together on any breaking change.
 */
export const RECORD_VERSION = 1;
