import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Where a frame lives, short enough for a table: package or project path, then line. */
function place(url: string, line: number): string {
  if (!url) return '';
  const modules = url.lastIndexOf('node_modules/');
  const path =
    modules !== -1 ? url.slice(modules + 'node_modules/'.length) : url.replace(/^.*\/(src|bench)\//, '$1/');
  return `${path.startsWith('node:') ? path : path.replace(/^file:\/\//, '')}:${line + 1}`;
}

/**
 * The entries with the most self time in a `.cpuprofile`, as a Markdown table: each function
 * (by name and place) with its share of all sampled time, idle and garbage collection included.
 */
export function topEntries(file: string, count = 12): string {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byNode = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<string, number>();
  let total = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const delta = profile.timeDeltas[i] ?? 0;
    const frame = byNode.get(profile.samples[i])!.callFrame;
    const key = `${frame.functionName || '(anonymous)'} ${place(frame.url, frame.lineNumber)}`.trim();
    self.set(key, (self.get(key) ?? 0) + delta);
    total += delta;
  }
  const rows = [...self.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([key, us]) => `| ${((us / total) * 100).toFixed(1)}% | \`${key}\` |`);
  return `| self time | function |\n|---|---|\n${rows.join('\n')}\n`;
}

/** The newest `.cpuprofile` in `dir` (a process writes one when it exits). */
export function newestProfile(dir: string): string {
  const files = readdirSync(dir)
    .filter((name) => name.endsWith('.cpuprofile'))
    .sort();
  if (files.length === 0) throw new Error(`no .cpuprofile in ${dir}`);
  return join(dir, files[files.length - 1]);
}

if (process.argv[1] && basename(process.argv[1]) === 'cpu-profile.ts') {
  for (const file of process.argv.slice(2)) process.stdout.write(`${file}\n\n${topEntries(file)}\n`);
}
