/** The attachment that carries one test's capture record from the fixture to the reporter. */
export const ATTACHMENT_NAME = 'daebug';
export const ATTACHMENT_CONTENT_TYPE = 'application/json';
