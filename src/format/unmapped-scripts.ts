/**
 * "Source maps" in `index.md`: why the run's scripts stayed unmapped, one line per cause with what to change, said
 * once for the run. The reports' frames only say `(not mapped: …)`. Pure.
 */
import type { UnmappedNote } from '../model/unmapped-note';
import { code, inline } from './fence';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** What the cause means and what to change, by cause; an unknown cause (a newer daebug's) gets the reasons alone. */
const ADVICE: Record<string, { title: string; advice: string }> = {
  'no-maps-built': {
    title: 'The build emits no source maps',
    advice:
      "No script of these servers has a `sourceMappingURL` and none was mapped: turn maps on in the build. Vite and SvelteKit: `build.sourcemap: true`; esbuild: `--sourcemap`; webpack: `devtool: 'source-map'`; Rollup: `output.sourcemap: true`.",
  },
  'map-not-found': {
    title: 'Source maps not served',
    advice: 'These scripts name a map the server does not have (404): serve the `.map` files next to the scripts (a step that deletes or uploads them elsewhere leaves them out), or inline them.',
  },
  'no-source-map': {
    title: 'Scripts without a `sourceMappingURL`',
    advice: "Other scripts of the app are mapped; the build step that makes these emits no map (a worker or an entry built apart, a file copied as it is, `sourcemap: 'hidden'`): turn maps on for it.",
  },
  'map-malformed': {
    title: 'Malformed source maps',
    advice: 'The file at the map URL is not a source map (an HTML fallback page, a truncated file): check what the server answers there.',
  },
  'map-unreadable': {
    title: 'Source maps that could not be read',
    advice: "daebug reads each map within 2 s and up to 10 MB, from the test's worker: see each reason.",
  },
  'script-unreadable': {
    title: 'Scripts that could not be read again',
    advice: "daebug reads each script again from the test's worker after the test: a script the server no longer serves at that URL, or serves only to a browser, cannot be mapped.",
  },
};

/** The section's lines; none when every script could be mapped. */
export function formatUnmappedSection(notes: readonly UnmappedNote[]): string[] {
  if (!notes.length) return [];
  const lines = ['## Source maps', '', "Frames in these scripts are shown at the script's own positions (`not mapped` in the reports):", ''];
  for (const note of notes) {
    const known = ADVICE[note.cause];
    lines.push(`- **${known?.title ?? code(note.cause)}**${known ? `. ${known.advice}` : ''}`);
    for (const script of note.scripts) {
      const detail = note.cause === 'no-maps-built' || note.cause === 'no-source-map' ? '' : `: ${inline(script.reason, 300)}`;
      lines.push(`  - ${code(clip(script.url))}${detail} (${plural(script.tests, 'test')})`);
    }
    if (note.more) lines.push(`  - … ${plural(note.more, 'more script')}: index.json`);
  }
  return lines;
}

function clip(text: string, max = 200): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
