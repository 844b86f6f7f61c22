// V8 keeps the memory it grew into while busy: the young generation at the size the busiest moment
// needed, old pages left half empty. Its own memory reducer, which should give them back once a
// process goes quiet, never does so in Node 24: in a process gone quiet it keeps judging the
// allocation rate high (`--trace-memory-reducer` prints "high alloc" every 8 s, for good), so it
// never starts. A script that makes three million small objects, keeps none and then waits stays
// at 142 MB resident; one memory-reducing collection takes it to 54 MB, where an ordinary full
// collection leaves 141 MB. A server after its start idles at 166 MB without this, 113 MB with it.
// So once the process has been quiet for a while after growing (a start, a million entrants, a
// soak), one memory-reducing collection returns what is free to the system.

import { performance } from 'node:perf_hooks';
import v8 from 'node:v8';
import vm from 'node:vm';

type Collect = (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

export interface MemoryRelease {
  stop(): void;
}

export interface MemoryReleaseOptions {
  /** How often the process looks at itself. */
  checkMs?: number;
  /** How many checks in a row must find the event loop this idle (the share of time it ran). */
  quietChecks?: number;
  maxUtilization?: number;
  /** Growth of the resident set since the last release below which a collection is not worth it. */
  minGrowthBytes?: number;
  /** The resident set size; a test gives its own. */
  rss?: () => number;
  /** The collection; V8's own unless a test gives another. */
  collect?: Collect;
}

/**
 * V8's collector, which Node exposes only behind a flag that `node` must be started with; npm
 * start cannot pass it, so it is set at run time just long enough to take the function and
 * cleared again, leaving no global `gc` for other code.
 */
function v8Collector(): Collect {
  const exposed = (globalThis as { gc?: Collect }).gc;
  if (exposed) return exposed;
  v8.setFlagsFromString('--expose-gc');
  const collect = vm.runInNewContext('gc') as Collect;
  v8.setFlagsFromString('--no-expose-gc');
  return collect;
}

/**
 * Watches the process every `checkMs`; when it has been quiet for `quietChecks` checks and its
 * resident set grew by `minGrowthBytes` since the last release (or since the start), runs one
 * memory-reducing collection. A busy process is never paused by it, and a quiet one at most once.
 */
export function releaseMemoryWhenIdle(options: MemoryReleaseOptions = {}): MemoryRelease {
  const checkMs = options.checkMs ?? 5000;
  const quietChecks = options.quietChecks ?? 2;
  const maxUtilization = options.maxUtilization ?? 0.02;
  const minGrowthBytes = options.minGrowthBytes ?? 16 * 2 ** 20;
  const rss = options.rss ?? process.memoryUsage.rss;
  const collect = options.collect ?? v8Collector();
  // Zero: the start itself is the first growth worth giving back.
  let released = 0;
  let quiet = 0;
  let mark = performance.eventLoopUtilization();
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const busy = performance.eventLoopUtilization(now, mark).utilization > maxUtilization;
    mark = now;
    quiet = busy ? 0 : quiet + 1;
    if (quiet < quietChecks || rss() < released + minGrowthBytes) return;
    collect({ type: 'major', execution: 'sync', flavor: 'last-resort' });
    released = rss();
    quiet = 0;
    // The collection's own pause is not load.
    mark = performance.eventLoopUtilization();
  }, checkMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
