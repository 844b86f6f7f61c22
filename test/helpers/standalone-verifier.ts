import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CliResult, freshState, runProcess } from './cli.ts';

/**
 * The machine's own Node.js, older than the project's: the standalone verifier promises to run
 * on Node 20, and the project's Node 24 comes first on PATH. Falls back to the test's Node.
 */
export function olderNode(): { path: string; version: string } {
  for (const path of ['/usr/bin/node', '/usr/local/bin/node']) {
    if (!existsSync(path)) continue;
    const version = spawnSync(path, ['--version'], { encoding: 'utf8' }).stdout.trim();
    const major = Number(/^v(\d+)\./.exec(version)?.[1]);
    if (major >= 20 && major < Number(process.versions.node.split('.')[0])) return { path, version };
  }
  return { path: process.execPath, version: process.version };
}

/** Downloads /tyche-verify.mjs into a fresh directory outside the repository, as a participant would. */
export async function downloadVerifier(serverUrl: string): Promise<{ dir: string; file: string }> {
  const res = await fetch(`${serverUrl}/tyche-verify.mjs`);
  if (!res.ok) throw new Error(`GET /tyche-verify.mjs answered ${res.status}`);
  const dir = mkdtempSync(join(tmpdir(), 'tyche-standalone-'));
  const file = join(dir, 'tyche-verify.mjs');
  writeFileSync(file, await res.text());
  return { dir, file };
}

/** Runs `node tyche-verify.mjs …` in `dir` with nothing but PATH (and `env`) in its environment. */
export function runStandalone(
  node: string,
  file: string,
  args: string[],
  options: { cwd: string; env?: Record<string, string | undefined> },
): Promise<CliResult> {
  return runProcess(node, [file, ...args], {
    cwd: options.cwd,
    env: { PATH: '/usr/bin:/bin', ...freshState(), ...options.env },
  });
}
