/** The attachment that carries one test's capture record from the fixture to the reporter. */
export const ATTACHMENT_NAME = 'daebug';
export const ATTACHMENT_CONTENT_TYPE = 'application/json';

/** The Markdown report, attached to each test's result by the reporter so Playwright's HTML report shows it. */
export const MARKDOWN_ATTACHMENT_NAME = 'daebug-report.md';
export const MARKDOWN_ATTACHMENT_CONTENT_TYPE = 'text/markdown';
