import { cpuSource, fmt, loadAverage, log, median, runPlaywright, type Row, type RunResult } from './lib';

/** One Playwright project of a benchmark: its name in the table, its folder, and environment for its runs. */
export interface BenchProject {
  name: string;
  dir: string;
  env?: Record<string, string> | undefined;
  /** Issue 25's CPU target for this project against bare, where it has one. */
  target?: number | undefined;
  /** Run once after the project's first (warm-up) run, before any measured one. */
  afterWarmUp?: (() => void) | undefined;
}

/** Each run of one project: wall and CPU of the whole tree, and the CPU split into runner, workers and browsers. */
export interface Series {
  wall: number[];
  cpu: number[];
  runner: number[];
  workers: number[];
  browsers: number[];
}

export type SeriesKey = keyof Series;

/** The name the A/A control goes by: a second bare project, whose ratio to the first is the run's noise. */
export const CONTROL = 'bare again (A/A)';

/**
 * Runs every project once a round, the order turning each round so that no project always runs first after the
 * machine's idle gap, with each run's CPU split (bench/cpu-at-exit.cjs). `onRun` sees every run (to check its output).
 */
export async function alternatingRounds(
  label: string,
  projects: readonly BenchProject[],
  rounds: number,
  onRun: (project: BenchProject, run: RunResult) => void = () => undefined,
  /** Arguments of every run (`--repeat-each=5`). */
  args: string[] = [],
): Promise<{ series: Record<string, Series>; loads: string[] }> {
  const series: Record<string, Series> = Object.fromEntries(projects.map(({ name }) => [name, { wall: [], cpu: [], runner: [], workers: [], browsers: [] }]));
  const loads: string[] = [];
  for (let round = 1; round <= rounds; round++) {
    const order = projects.map((_, i) => projects[(i + round - 1) % projects.length]!);
    for (const project of order) {
      const run = await runPlaywright(project.dir, args, project.env, { split: true });
      onRun(project, run);
      const s = series[project.name]!;
      const runner = run.runnerMs ?? NaN;
      const workers = run.workersMs ?? NaN;
      s.wall.push(run.wallMs);
      s.cpu.push(run.cpuMs);
      s.runner.push(runner);
      s.workers.push(workers);
      s.browsers.push(run.cpuMs - runner - workers);
      loads.push(loadAverage());
      log(`  ${label} round ${round} ${project.name}: ${fmt(run.wallMs / 1000, 2)} s wall, ${fmt(run.cpuMs / 1000, 1)} s CPU (runner ${fmt(runner / 1000, 2)} s, workers ${fmt(workers / 1000, 2)} s) (load ${loadAverage()})`);
    }
  }
  return { series, loads };
}

/** Each round's ratio of `name` to `base`: a median of these is steadier than a ratio of medians on a noisy machine. */
export function perRoundRatios(series: Record<string, Series>, name: string, base: string, key: SeriesKey = 'cpu'): number[] {
  return series[name]![key].map((v, i) => v / series[base]![key][i]!);
}

export function ratioOfMedians(series: Record<string, Series>, name: string, base: string, key: SeriesKey = 'cpu'): number {
  return median(series[name]![key]) / median(series[base]![key]);
}

/** What `name` adds in Node (runner and workers) as a share of the bare run's whole CPU: daebug's own code, without Chromium's noise. */
export function nodeExtraShare(series: Record<string, Series>, name: string, base: string): number {
  const node = (s: Series) => median(s.runner) + median(s.workers);
  return (node(series[name]!) - node(series[base]!)) / median(series[base]!.cpu);
}

/**
 * The rows of an alternating-rounds suite bench, for each project but the first (bare): its CPU against bare's,
 * its CPU split into runner, workers and browsers, and its wall time; then the load average after each run.
 * `shape` says what ran (`30 tests × 5 realms, 2 workers`); `metBy` is how the target is judged: the ratio of the
 * medians, or the median of the per-round ratios.
 */
export function roundsRows(bench: string, shape: string, projects: readonly BenchProject[], run: { series: Record<string, Series>; loads: string[] }, metBy: 'medians' | 'rounds'): Row[] {
  const { series, loads } = run;
  const base = series['baseline']!;
  const perRound = (name: string, key: SeriesKey) => perRoundRatios(series, name, 'baseline', key);
  const ratio = (name: string, key: SeriesKey) => ratioOfMedians(series, name, 'baseline', key);
  const split = (s: Series) => (['runner', 'workers', 'browsers'] as const).map((k) => fmt(median(s[k]) / 1000, 2)).join(' / ') + ' s';
  const rows = projects.slice(1).flatMap(({ name, target }): Row[] => {
    const judged = metBy === 'medians' ? ratio(name, 'cpu') : median(perRound(name, 'cpu'));
    return [
      {
        bench,
        metric: `${name}: CPU (${cpuSource()}), ${shape} (median of ${base.cpu.length}; per-round ratios ${perRound(name, 'cpu').map((r) => fmt(r, 3)).join(', ')})`,
        baseline: `${fmt(median(base.cpu) / 1000, 1)} s`,
        daebug: `${fmt(median(series[name]!.cpu) / 1000, 1)} s`,
        ratio: `${fmt(ratio(name, 'cpu'), 3)} (rounds ${fmt(median(perRound(name, 'cpu')), 3)})`,
        target: target ? `≤ ${target}` : 'noise',
        ...(target ? { met: judged <= target } : {}),
      },
      {
        bench,
        metric: `${name}: CPU split: runner, workers, browsers (medians; the Node side's extra as a share of the bare run's CPU: ${fmt(nodeExtraShare(series, name, 'baseline') * 100, 2)} %)`,
        baseline: split(base),
        daebug: split(series[name]!),
        ratio: (['runner', 'workers', 'browsers'] as const).map((k) => fmt(ratio(name, k), 3)).join(' / '),
        target: '',
      },
      {
        bench,
        metric: `${name}: wall (per-round ratios ${perRound(name, 'wall').map((r) => fmt(r, 3)).join(', ')})`,
        baseline: `${fmt(median(base.wall) / 1000, 2)} s`,
        daebug: `${fmt(median(series[name]!.wall) / 1000, 2)} s`,
        ratio: `${fmt(ratio(name, 'wall'), 3)} (rounds ${fmt(median(perRound(name, 'wall')), 3)})`,
        target: '',
      },
    ];
  });
  return rows.concat([{ bench, metric: `load average after each run: ${loads.join('; ')}`, baseline: '', daebug: '', ratio: '', target: '' }]);
}
