export const EXIT_CODES = `Exit codes:
  0  done (also when errors were found: read the output)
  1  show: no test or several tests match; mcp: the server could not start
  2  bad usage (unknown command or flag, bad value), or no daebug reports in the folder`;

const GLOBAL = `  --dir <folder>  the reporter's outputDir (default: reports)
  -h, --help      this help
  -v, --version   daebug's version`;

export const PROGRAM_USAGE = `Usage: npx daebug <command> [flags]

Reads the reports daebug's Playwright reporter wrote (index.json and <slug>.json).

Commands:
  errors   the most recent browser errors of the run, oldest first
  groups   the run's distinct errors (one per fingerprint), most widespread first, new ones first
  baseline write the run's error fingerprints to daebug-baseline.json (for daebugBaseline)
  summary  every test with its error counts, tests with unexpected errors first
  show     one test's Markdown report
  flaky    across the kept runs: flaky tests and what separates their failing attempts, tests failing since a run
  history  one test's timeline across the kept runs, one line per run
  mcp      an MCP server over stdio with the same answers (needs @modelcontextprotocol/sdk)

Flags:
${GLOBAL}

Run npx daebug <command> --help for a command's flags.

${EXIT_CODES}
`;

export const COMMAND_USAGE: Record<string, string> = {
  groups: `Usage: npx daebug groups [--new] [--baseline <file>] [--json] [--dir reports]

The run's distinct errors: every error, warning and failed request of every test and attempt, grouped by
fingerprint (kind, message with its data replaced, first user frame's file and function). One line each:
new or known (with a baseline), intermittent, kind, message, tests and times, where, first report,
fingerprint. Unexpected errors first, then warnings and failed requests, then baseline groups that did not
happen (fixed).

Flags:
  --new              only groups not in the baseline (the run's daebugBaseline, or --baseline)
  --baseline <file>  compare with this baseline file instead of the one the run's tests used
  --json             { dir, baseline?, groups: [...], fixed?: [...] } with index.json's group fields
${GLOBAL}

${EXIT_CODES}
`,
  baseline: `Usage: npx daebug baseline [--out daebug-baseline.json] [--prune] [--dir reports]

Writes the fingerprints of the run's error groups, with message, source, where, count and tests, sorted by
fingerprint (stable text that diffs well in git). Point daebugBaseline at it: errors in it are known, and
strict mode fails only on new ones.

Flags:
  --out <file>    the baseline file (default: daebug-baseline.json)
  --prune         drop from the existing file the groups that did not happen in this run; add nothing
${GLOBAL}

${EXIT_CODES}
`,
  errors: `Usage: npx daebug errors [--limit 20] [--test <text or /regex/>] [--expected] [--new] [--baseline <file>] [--json] [--dir reports]

The most recent errors across all tests (uncaught errors, unhandled rejections, console.error, crashes,
and anything else a test counted as unexpected: a script its CSP blocked, a failed request under
daebugNetwork: 'strict'), oldest first. Each error is a block: "Error: <message>", "  at <file>:<line>:<col>"
(the first frame of your code, at its original source), the stack as "  at <function> (<file>:<line>:<col>)"
lines with library frames folded, then "kind:" (for what is not a thrown Error: a rejected object, a console
call, a failed request), "root cause of this test:" for the error the report names as its root cause, the
hint, the test, the time and its report, then ---. Says "No JavaScript errors captured" when there are none.

Flags:
  --limit <n>     how many of the most recent errors (default 20)
  --test <query>  only tests whose title path, file or report name contains the text, or matches /regex/flags
  --expected      also list errors the tests expected (daebugIgnore, daebug.expectError); by default they are only counted
  --new           only unexpected errors not in the baseline (the run's daebugBaseline, or --baseline)
  --baseline <f>  compare with this baseline file
  --json          JSON described by errorsOutputSchema (daebug/cli)
${GLOBAL}

${EXIT_CODES}
`,
  summary: `Usage: npx daebug summary [--json] [--dir reports]

Every test of the run as a table (status, unexpected errors, errors, console events, title, report),
tests with unexpected errors first; under a test with unexpected errors, the root cause its report names
and where it is.

Flags:
  --json          JSON described by summaryOutputSchema (daebug/cli)
${GLOBAL}

${EXIT_CODES}
`,
  show: `Usage: npx daebug show <test title, report name or spec file> [--json] [--dir reports]

Prints one test's Markdown report. The query is matched, most precise first, as a report name (slug,
with or without .md, or the report path daebug errors prints), an exact title or title path, a spec file
(or file:line), then as text or /regex/ in the title path. When several tests match, lists them (exit 1).

Flags:
  --json          the JSON report (reportSchema) instead; several matches as showMatchesOutputSchema
${GLOBAL}

${EXIT_CODES}
`,
  flaky: `Usage: npx daebug flaky [--history <folder>] [--json] [--dir reports]

Reads the history the reporter keeps (one file per run; its history option, default .daebug/history next to
the config) and lists, most unstable first, the tests that are flaky: an attempt failed and a retry passed in
some run, or the outcome changed between runs more than once. For each: runs, attempts, failures, retries
that passed, the first run it flaked in (time, commit), and the browser evidence that separates its failing
attempts from its passing ones: each error group or failed request with its counts on both sides
("3 of 3 failing, 0 of 37 passing"), kept by a one-sided Fisher's exact test (p <= 0.05) on the test's own
attempts. "no browser evidence" when nothing does. Then the tests failing in every attempt since some run
(not flaky), with what appeared in that run, and tests fixed since a run.

Flags:
  --history <folder>  the history folder (default: the one index.json in --dir names, else .daebug/history)
  --json              { history, runs, rule, flaky: [...], failingSince: [...], fixed: [...], skipped: [...] }
${GLOBAL}

${EXIT_CODES}
`,
  history: `Usage: npx daebug history <test title, title path, spec file or /regex/> [--history <folder>] [--json] [--dir reports]

One test's timeline across the kept runs, one line per run: the run (number, time, commit), FLAKY, FAILED
or passed, each attempt's outcome and the duration; under it the error groups and failed requests of its
attempts, "new" for those this test had in no earlier run. The test is matched like errors --test; when
several tests match, lists them (exit 1). A renamed test has a new timeline.

Flags:
  --history <folder>  the history folder (default: the one index.json in --dir names, else .daebug/history)
  --json              { history, timeline: { test, verdict, since?, runs, of, entries: [...] } }
${GLOBAL}

${EXIT_CODES}
`,
  mcp: `Usage: npx daebug mcp [--dir reports]

Starts an MCP server over stdio with the tools daebug_get_errors (limit, default 20; test; new),
daebug_get_error_groups (new), daebug_list_tests, daebug_get_report (test), daebug_get_flaky and daebug_get_history (test).
They answer with the text of errors, groups, summary, show, flaky and history,
reading the folder on every call. Needs @modelcontextprotocol/sdk (npm install --save-dev @modelcontextprotocol/sdk).

Agent configuration: {"mcpServers":{"daebug":{"command":"npx","args":["daebug","mcp"]}}}

Flags:
${GLOBAL}

${EXIT_CODES}
`,
};
