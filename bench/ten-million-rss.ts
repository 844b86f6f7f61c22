import { readFileSync, writeFileSync } from 'node:fs';

const MB = 2 ** 20;

function status(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? (Number(match[1]) * 1024) / MB : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/** Linux resets a process's peak RSS (VmHWM) to its current RSS when 5 is written to clear_refs. */
function resetPeak(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

export interface PhaseMemory {
  /** VmRSS when the phase started and the highest it reached (VmHWM, reset at the start), MB. */
  before: number;
  peak: number;
}

/**
 * The server's memory throughout a run: VmRSS sampled every 100 ms, and per phase the kernel's
 * own peak (VmHWM), which also catches what happens between samples or while this process is
 * busy driving the load.
 */
export function watchServerMemory(pid: number) {
  let highest = status(pid, 'VmRSS');
  const timer = setInterval(() => {
    const now = status(pid, 'VmRSS');
    if (now > highest) highest = now;
  }, 100);
  timer.unref();
  return {
    /** Starts a phase; the returned function ends it and tells its memory. */
    phase(): () => PhaseMemory {
      const before = status(pid, 'VmRSS');
      const reset = resetPeak(pid);
      return () => {
        const peak = reset ? status(pid, 'VmHWM') : Number.NaN;
        if (peak > highest) highest = peak;
        return { before, peak };
      };
    },
    /** The highest RSS seen since the watch began (sampled, and every phase's VmHWM), MB. */
    highest: () => Math.max(highest, status(pid, 'VmHWM')),
    stop: () => clearInterval(timer),
  };
}

export type ServerMemory = ReturnType<typeof watchServerMemory>;
