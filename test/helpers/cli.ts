import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

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

/** Runs `tyche …` as its own process on the Node that runs the tests. */
export function runTyche(args: string[], env: Record<string, string | undefined>): Promise<CliResult> {
  return runProcess(process.execPath, [CLI, ...args], { env: { PATH: process.env.PATH, ...env } });
}
