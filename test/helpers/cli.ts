import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli } from '../../src/cli/main.ts';

export const CLI = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end, collecting its output; only `env` (with PATH) is its environment. */
export function runProcess(
  command: string,
  args: string[],
  options: { cwd?: string; env: Record<string, string | undefined> },
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The folder of this test process's state directories, removed when the process exits. */
let stateRoot: string | undefined;

/**
 * A fresh state directory per run unless the caller gives one: verifiers pin log keys and keep
 * checkpoints there, and no run may see another's (or the machine user's) pins.
 */
export function freshState(): { XDG_STATE_HOME: string } {
  if (!stateRoot) {
    const root = mkdtempSync(join(tmpdir(), 'tyche-state-'));
    process.once('exit', () => rmSync(root, { recursive: true, force: true }));
    stateRoot = root;
  }
  return { XDG_STATE_HOME: mkdtempSync(join(stateRoot, 'run-')) };
}

/**
 * Runs `tyche …` in this process through runCli, the seam `main` uses, with only `env` as its
 * environment: the same parsing, output and exit codes without starting Node and loading the
 * sources again for every call. runTycheProcess keeps a few tests on the real process.
 */
export async function runTyche(args: string[], env: Record<string, string | undefined>): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    out: (line) => {
      stdout += `${line}\n`;
    },
    err: (line) => {
      stderr += `${line}\n`;
    },
    env: { PATH: process.env.PATH, ...freshState(), ...env },
  });
  return { code, stdout, stderr };
}

/** Runs `tyche …` as its own process on the Node that runs the tests. */
export function runTycheProcess(args: string[], env: Record<string, string | undefined>): Promise<CliResult> {
  return runProcess(process.execPath, [CLI, ...args], {
    env: { PATH: process.env.PATH, ...freshState(), ...env },
  });
}
