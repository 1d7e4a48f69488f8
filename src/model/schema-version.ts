/**
 * Version of the JSON report layout; bumped on any breaking change of field meaning. Apart from the zod schemas, so
 * that writing a report does not load zod.
 */
export const SCHEMA_VERSION = 1;
