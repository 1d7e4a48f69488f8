// Preloaded (NODE_OPTIONS=--require) into the Playwright runner and its workers by bench/lib.ts `processSplit`: each
// Node process appends its own CPU time (every thread: user + system) to $DAEBUG_BENCH_CPU_LOG when it exits, so a
// run's CPU splits into runner, workers and the rest (Chromium). Plain CommonJS: it must load before anything else.
'use strict';
const fs = require('node:fs');
const log = process.env.DAEBUG_BENCH_CPU_LOG;
if (log) {
  process.on('exit', () => {
    const usage = process.cpuUsage();
    const kind = (process.argv[1] || '').includes('workerProcessEntry') ? 'worker' : 'runner';
    try {
      fs.appendFileSync(log, `${JSON.stringify({ kind, ms: (usage.user + usage.system) / 1000 })}\n`);
    } catch {
      // A figure lost is a row with NaN, not a failed benchmark.
    }
  });
}
