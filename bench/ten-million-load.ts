import autocannon from 'autocannon';
import { fastSha256 } from '../src/giveaways/entrants/entrant-tree.ts';
import { fromHex } from '../src/proof/hex.ts';
import { verifyInclusion } from '../src/proof/merkle.ts';
import { telegramIdAt } from './ten-million-seed.ts';

export const CONNECTIONS = 10;
/** BENCH_LOAD_S: seconds of each load (receipts, proofs). */
const LOAD_S = Number(process.env.BENCH_LOAD_S ?? 20);

export interface Load {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  max: number;
  failed: number;
}

/** A deterministic spread over 1..n, so two runs ask for the same entrants. */
function spread(n: number) {
  let state = 0x9e3779b9;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return 1 + (state % n);
  };
}

async function run(url: string, headers: Record<string, string>, path: () => string): Promise<Load> {
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: LOAD_S,
    headers,
    requests: [{ method: 'GET', setupRequest: (request) => ({ ...request, path: path() }) }],
  });
  return {
    requests: result.requests.total,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    failed: result.non2xx + result.errors + result.timeouts,
  };
}

/** Owners' receipts (ticket signed on the spot, proof, seal timestamps) of entrants all over the list. */
export function receiptLoad(url: string, key: string, publicId: string, entrants: number) {
  const next = spread(entrants);
  return run(url, { authorization: `Bearer ${key}` }, () => {
    return `/api/v1/giveaways/${publicId}/entrants/${telegramIdAt(next())}/receipt`;
  });
}

/** The public proof route (no key), for leaves spread over the sealed list. */
export function proofLoad(url: string, publicId: string, leaves: readonly string[]) {
  const next = spread(leaves.length);
  return run(url, {}, () => `/g/${publicId}/proof/${leaves[next() - 1]}`);
}

/** Checks served proofs of `leaves` against the sealed root: a fast wrong answer is no answer. */
export async function checkProofs(url: string, publicId: string, leaves: readonly string[], root: string) {
  const step = Math.max(1, Math.floor(leaves.length / 16));
  for (let i = 0; i < leaves.length; i += step) {
    const res = await fetch(`${url}/g/${publicId}/proof/${leaves[i]}`);
    const p = (await res.json()) as { index: number; count: number; root: string; proof: string[] };
    const ok =
      res.status === 200 &&
      p.root === root &&
      verifyInclusion(fromHex(leaves[i]), p.index, p.count, p.proof.map(fromHex), fromHex(root), fastSha256);
    if (!ok) throw new Error(`the served proof of ${leaves[i]} does not verify`);
  }
}
