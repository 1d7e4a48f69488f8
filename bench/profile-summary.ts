import fs from 'node:fs';
import path from 'node:path';

/**
 * Summarises `--cpu-prof` output: time inside daebug's code (its own frames and everything they call)
 * and the hottest functions by self time.
 * Usage: tsx bench/profile-summary.ts <dir-or-.cpuprofile>... [--top=25]
 */
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const isDaebug = (url: string) => /\/(dist|src)\/(capture|reporter|format|model|fixture|daebug|options|slug|report-path|stack|diagnosis|run|live|errors|redact|lazy-exports|option-schemas|test-header|trace-|index|browser|text|io|test-info)/.test(url) && !url.includes('node_modules/playwright');

function files(args: string[]): string[] {
  return args.flatMap((arg) => (fs.statSync(arg).isDirectory() ? fs.readdirSync(arg).filter((f) => f.endsWith('.cpuprofile')).map((f) => path.join(arg, f)) : [arg]));
}

function summarise(file: string, top: number): void {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const insideDaebug = new Map<number, boolean>();
  const inside = (id: number): boolean => {
    const known = insideDaebug.get(id);
    if (known !== undefined) return known;
    const node = byId.get(id)!;
    const up = parent.get(id);
    const value = isDaebug(node.callFrame.url) || (up !== undefined && inside(up));
    insideDaebug.set(id, value);
    return value;
  };
  const keyOf = (node: ProfileNode) => {
    const { functionName, url, lineNumber } = node.callFrame;
    return `${functionName || '(anonymous)'} ${url ? `${url.replace(/^.*\/(node_modules|dist|src)\//, '$1/')}:${lineNumber + 1}` : ''}`;
  };
  // Inclusive time per daebug function, counted once per sample however deep it recurses.
  const daebugInclusive = new Map<string, number>();
  const self = new Map<string, number>();
  let total = 0;
  let idle = 0;
  let daebug = 0;
  profile.samples.forEach((id, i) => {
    const us = profile.timeDeltas[i] ?? 0;
    const node = byId.get(id)!;
    const { functionName, url, lineNumber } = node.callFrame;
    total += us;
    if (functionName === '(idle)') idle += us;
    if (inside(id)) {
      daebug += us;
      const seen = new Set<string>();
      for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
        const frame = byId.get(at)!;
        if (!isDaebug(frame.callFrame.url)) continue;
        const key = keyOf(frame);
        if (!seen.has(key)) daebugInclusive.set(key, (daebugInclusive.get(key) ?? 0) + us);
        seen.add(key);
      }
    }
    const key = url || functionName.startsWith('(') ? keyOf(node) : `${functionName} (native)`;
    self.set(key, (self.get(key) ?? 0) + us);
  });
  const busy = total - idle;
  const ms = (us: number) => `${(us / 1000).toFixed(1)} ms`;
  const list = (map: Map<string, number>) => [...map.entries()].sort((a, b) => b[1] - a[1]).slice(0, top).map(([key, us]) => `  ${ms(us).padStart(10)}  ${key}`);
  console.log(`\n${path.basename(file)}: ${ms(total)} sampled, ${ms(busy)} busy, daebug (inclusive) ${ms(daebug)} = ${((daebug / busy) * 100).toFixed(1)}% of busy`);
  console.log(' self time:');
  console.log(list(self).join('\n'));
  if (daebugInclusive.size) {
    console.log(' daebug functions, inclusive:');
    console.log(list(daebugInclusive).join('\n'));
  }
}

const top = Number(process.argv.find((a) => a.startsWith('--top='))?.slice(6) ?? 25);
for (const file of files(process.argv.slice(2).filter((a) => !a.startsWith('--')))) summarise(file, top);
