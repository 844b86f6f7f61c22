import { readFileSync } from 'node:fs';
import type { Request } from 'autocannon';
import { runTyche } from '../test/helpers/cli.ts';
import type { ServerProcess } from '../test/helpers/server-process.ts';
import { rssOf } from './giveaways-setup.ts';

export interface SoakMix {
  headers: Record<string, string>;
  /** What autocannon cycles through on each connection. */
  requests: Request[];
  /** Entrants added by the mix so far. */
  added(): number;
  /** Calls the API with the mix's key, answering the parsed JSON body. */
  api(method: string, path: string, body?: unknown): Promise<Record<string, string>>;
}

/** Child process ids of `pid` (Linux), none when it has gone. */
function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/**
 * The server's RSS in MB with its child processes' (a helper it spawned costs the machine as
 * much as its own heap), from /proc (Linux).
 */
export function treeRssMb(pid: number): number {
  const own = rssOf(pid) / 2 ** 20;
  return childrenOf(pid).reduce((sum, child) => sum + treeRssMb(child), own);
}

/**
 * The soak's traffic against one `tyche serve` whose data is in `env`: random values, the
 * giveaway list, additions of 10 new entrants (so the store grows throughout), the public
 * verification page and its PDF, and a shuffle. Sets up a key and two giveaways first.
 */
export async function soakMix(server: ServerProcess, env: Record<string, string>): Promise<SoakMix> {
  const created = await runTyche(['keys', 'create', '--json', '--daily-limit', '1000000000'], env);
  const key = JSON.parse(created.stdout).key as string;
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server.url}/api/v1${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return res.json() as Promise<Record<string, string>>;
  };
  const open = await api('POST', '/giveaways', { title: 'Soak', winners_count: 3, draw_mode: 'instant' });
  const drawn = await api('POST', '/giveaways', {
    title: 'Soak drawn',
    winners_count: 3,
    draw_mode: 'instant',
  });
  await api('POST', `/giveaways/${drawn.public_id}/participants`, {
    participants: Array.from({ length: 500 }, (_, i) => ({ telegram_id: i + 1 })),
  });
  const certificate = (await api('POST', `/giveaways/${drawn.public_id}/draw`)).certificate_id;
  let nextId = 1;
  const requests: Request[] = [
    { method: 'GET', path: '/api/v1/random/int?min=1&max=100&count=10' },
    { method: 'GET', path: '/api/v1/giveaways?limit=20' },
    {
      method: 'POST',
      path: `/api/v1/giveaways/${open.public_id}/participants`,
      setupRequest: (request) => {
        const participants = Array.from({ length: 10 }, () => ({ telegram_id: nextId++ }));
        return { ...request, body: JSON.stringify({ participants }) };
      },
    },
    { method: 'GET', path: `/verify/${certificate}` },
    { method: 'GET', path: `/verify/${certificate}.pdf` },
    {
      method: 'POST',
      path: '/api/v1/random/shuffle',
      body: JSON.stringify({ items: [1, 2, 3, 4, 5, 6, 7, 8] }),
    },
  ];
  return { headers, requests, added: () => nextId - 1, api };
}
