import { cpuSource, fmt, loadAverage, log, median, quick, runPlaywright, type Row, type RunResult } from './lib';
import { buildRealmsApp, checkRealmReports, realmArgs, realmProjects } from './multi-realm';
import { checkRealReports, realProjects } from './real-suite';
import { CONTROL, type BenchProject } from './rounds';
import { checkSuiteReports, suiteProjects } from './suite-overhead';

const ROUNDS = quick ? 1 : Number(process.env['BENCH_ROUNDS'] ?? 5);

/**
 * Paired runs: each project runs at the same moment as the bare project, one worker each, so whatever else loads the
 * machine in that minute falls on both runs of a pair; who starts first alternates round by round. The figure is the
 * median of the per-pair CPU ratios; the A/A pair (a second bare project) says what the pairing resolves. Two runs at
 * once share the 2 cores, so each run's CPU is higher than it is alone, for both sides alike.
 * `BENCH_PAIRED_SUITE=suite` (the object-logging page, with BENCH_SUITE_WAIT and BENCH_SUITE_VARIANTS as for `suite`)
 * or `real` (the shop; the default), or `realms` (issue 36's multi-realm app, run with `--repeat-each` and its
 * retries as in its alternating rounds).
 */
export async function paired(): Promise<Row[]> {
  const which = process.env['BENCH_PAIRED_SUITE'] ?? 'real';
  if (which !== 'real' && which !== 'suite' && which !== 'realms') throw new Error(`BENCH_PAIRED_SUITE: "${which}" is not real, suite or realms`);
  if (which === 'realms') await buildRealmsApp();
  const projects = which === 'real' ? realProjects() : which === 'realms' ? realmProjects() : suiteProjects();
  const [base, ...others] = projects as [BenchProject, ...BenchProject[]];
  const args = which === 'realms' ? ['--workers=1', ...realmArgs()] : ['--workers=1'];
  const run = (project: BenchProject) => runPlaywright(project.dir, args, project.env, { split: true });
  // One run each first: compiles the specs into Playwright's cache and warms the disk.
  for (const project of projects) {
    await run(project);
    project.afterWarmUp?.();
  }

  const cpu: Record<string, number[]> = Object.fromEntries(others.map(({ name }) => [name, []]));
  const node: Record<string, number[]> = Object.fromEntries(others.map(({ name }) => [name, []]));
  const loads: string[] = [];
  const nodeOf = (r: RunResult) => (r.runnerMs ?? NaN) + (r.workersMs ?? NaN);
  for (let round = 1; round <= ROUNDS; round++) {
    for (const other of others) {
      const [bare, measured] = round % 2 ? await Promise.all([run(base), run(other)]) : ((await Promise.all([run(other), run(base)])).reverse() as [RunResult, RunResult]);
      cpu[other.name]!.push(measured.cpuMs / bare.cpuMs);
      node[other.name]!.push((nodeOf(measured) - nodeOf(bare)) / bare.cpuMs);
      loads.push(loadAverage());
      log(`  paired ${which} round ${round} ${other.name}: CPU ratio ${fmt(measured.cpuMs / bare.cpuMs, 3)} (bare ${fmt(bare.cpuMs / 1000, 1)} s, ${fmt(measured.cpuMs / 1000, 1)} s; Node side ${fmt(nodeOf(bare) / 1000, 2)} s, ${fmt(nodeOf(measured) / 1000, 2)} s) (load ${loadAverage()})`);
    }
  }
  if (which === 'real') checkRealReports(projects);
  else if (which === 'realms') checkRealmReports(projects[1]!.dir);
  else checkSuiteReports(projects);

  const title = { real: 'real suite, paired', realms: 'multi-realm app, paired', suite: 'object-logging page, paired' }[which];
  const rows: Row[] = others.map(({ name, target }) => {
    const ratio = median(cpu[name]!);
    return {
      bench: title,
      metric: `${name}: CPU ratio to a bare run at the same moment (${cpuSource()}), 1 worker each, median of ${ROUNDS} pairs (pairs ${cpu[name]!.map((r) => fmt(r, 3)).join(', ')}); Node side's extra ${fmt(median(node[name]!) * 100, 2)} % of the bare run's CPU`,
      baseline: '',
      daebug: `${fmt(Math.min(...cpu[name]!), 3)}–${fmt(Math.max(...cpu[name]!), 3)}`,
      ratio: fmt(ratio, 3),
      target: target ? `≤ ${target}` : name === CONTROL ? 'noise' : '',
      ...(target ? { met: ratio <= target } : {}),
    };
  });
  return rows.concat([{ bench: title, metric: `load average after each pair: ${loads.join('; ')}`, baseline: '', daebug: '', ratio: '', target: '' }]);
}
