import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { createInterface } from 'node:readline';
import { CLI } from './cli.ts';

const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
/** The Node flags `npm start` gives the server: tests and benches run it as it runs in service. */
export const START_FLAGS: string[] = manifest.scripts.start
  .split(' ')
  .filter((word: string) => word.startsWith('--'));

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** Log lines the process printed (JSON), for assertions on what was logged. */
  logs: string[];
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

/**
 * Starts `tyche COMMAND` as a process of its own, its stdout and stderr piped, on 127.0.0.1 and
 * `port` (0: any), with no upstream a test must not reach unless `env` names one.
 */
export function spawnTyche(
  env: Record<string, string>,
  { command = 'serve', entry = CLI, port = 0 }: { command?: string; entry?: string; port?: number } = {},
): ChildProcess {
  return spawn(process.execPath, [...START_FLAGS, entry, command], {
    // Readiness is read from the info-level start-up line, so the level is not left to the caller.
    env: {
      PATH: process.env.PATH,
      HOST: '127.0.0.1',
      // No test may reach a real drand relay; a verifiable test passes its fake chain's URL.
      DRAND_URL: 'http://127.0.0.1:9',
      // Nor a real TSA: a test that wants timestamps names its fake TSAs.
      TYCHE_TSA_URLS: '',
      ...env,
      LOG_LEVEL: 'info',
      PORT: String(port),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Runs `tyche serve` (or `tyche witness`) as a real process and resolves once it logs that it is serving. */
export async function startServerProcess(
  env: Record<string, string>,
  options: {
    keepLogs?: boolean;
    command?: 'serve' | 'witness';
    /** What the process runs: the CLI's source unless said otherwise (bin/tyche.js is what npm start runs). */
    entry?: string;
  } = {},
): Promise<ServerProcess> {
  const port = await freePort();
  const command = options.command ?? 'serve';
  const child = spawnTyche(env, { command, entry: options.entry, port });
  const logs: string[] = [];
  let stderr = '';
  child.stderr!.on('data', (d) => {
    stderr += d;
  });
  const lines = createInterface({ input: child.stdout! });
  const ready = new Promise<string>((resolve, reject) => {
    lines.on('line', (line) => {
      logs.push(line);
      if (/"tyche (witness )?is serving"/.test(line)) resolve(JSON.parse(line).url);
    });
    child.once('exit', (code) =>
      reject(new Error(`tyche ${command} exited with ${code} before serving: ${stderr}`)),
    );
  });
  const url = await ready;
  if (options.keepLogs === false) {
    // Benchmarks: read and drop the request log instead of parsing and keeping every line.
    lines.close();
    child.stdout!.resume();
  }
  return {
    url,
    child,
    logs,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill(signal);
      const [code] = await once(child, 'exit');
      return code as number | null;
    },
  };
}
