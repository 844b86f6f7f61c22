import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { roundOf } from '../../src/proof/draw-v2.ts';
import type { CertificateV2, Receipt } from '../../src/proof/v2-types.ts';
import { startChainServer } from './chain-server.ts';
import { runTyche } from './cli.ts';
import type { FakeDrand } from './fake-upstreams.ts';
import type { ServerProcess } from './server-process.ts';
import { downloadVerifier, olderNode, runStandalone } from './standalone-verifier.ts';

export interface DrawnServer {
  server: ServerProcess;
  drand: FakeDrand;
  dir: string;
  file(name: string): string;
  /** A giveaway of twelve entrants, two winners and two reserves, drawn on the local chain. */
  drawn: { publicId: string; certificate: CertificateV2; verifyUrl: string; receipts: Receipt[] };
  /** Each entrant's receipt as the owner's API gave it before the seal (no proof yet). */
  receiptsBeforeSeal: Receipt[];
  /** A giveaway still open, and one sealed whose round the relay holds back. */
  open: { publicId: string; receipts: Receipt[] };
  waiting: { publicId: string; receipts: Receipt[]; round: number };
  /** The owner's entrants export of the drawn giveaway, page by page (5 per page). */
  exportPages: unknown[];
  /** Runs `tyche verify …` and `node tyche-verify.mjs …` (the machine's older Node) on the same arguments. */
  both(args: string[], env?: Record<string, string>): Promise<{ cli: CliRun; mjs: CliRun }>;
  nodeVersion: string;
  stop(): Promise<void>;
}

type CliRun = Awaited<ReturnType<typeof runTyche>>;

/**
 * A real `tyche serve` on a local drand chain with real BLS signatures (a round a second), with a
 * drawn verifiable giveaway, an open one and a sealed one waiting for a held-back round.
 */
export async function startDrawnServer(): Promise<DrawnServer> {
  const { server, drand, dir, call, stop } = await startChainServer({
    period: 1,
    env: { TYCHE_DRAW_WAIT_MS: '30000' },
  });
  const giveaway = async (title: string, count: number, base: number) => {
    const g = await call('POST', '/giveaways', { title, winners_count: 2, reserve_count: 2 });
    const entrants = Array.from({ length: count }, (_, i) => ({
      telegram_id: base + i * 7919,
      username: `u${i}`,
    }));
    await call('POST', `/giveaways/${g.public_id}/participants`, { participants: entrants });
    const receipts = () =>
      Promise.all(
        entrants.map((e) => call('GET', `/giveaways/${g.public_id}/entrants/${e.telegram_id}/receipt`)),
      ) as Promise<Receipt[]>;
    return { publicId: g.public_id as string, receipts };
  };

  const main = await giveaway('Verifiable “prize” 🎁', 12, 7_000_000_000);
  const receiptsBeforeSeal = await main.receipts();
  let drawn = await call('POST', `/giveaways/${main.publicId}/draw`, {});
  for (let i = 0; drawn.certificate_id === undefined || drawn.status === 'sealed'; i++) {
    assert.ok(i < 120, 'the draw did not complete');
    await new Promise((resolve) => setTimeout(resolve, 250));
    drawn = await call('GET', `/giveaways/${main.publicId}`);
  }
  const verifyUrl = `${server.url}/verify/${drawn.certificate_id}`;
  const certificate = (await (await fetch(`${verifyUrl}.json`)).json()) as CertificateV2;

  const open = await giveaway('Still open', 3, 8_000_000_000);
  const waiting = await giveaway('Waiting for its round', 5, 9_000_000_000);
  // Every round after the current one is held back, so the seal's committed round cannot appear.
  drand.withhold(roundOf(Date.now(), drand.info) + 1);
  const sealed = await call('POST', `/giveaways/${waiting.publicId}/seal`, {});

  const exportPages: unknown[] = [];
  for (let cursor: string | null = ''; cursor !== null; ) {
    const page = await call(
      'GET',
      `/giveaways/${main.publicId}/entrants?limit=5${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    exportPages.push(page);
    cursor = page.next_cursor;
  }

  const file = (name: string) => join(dir, name);
  writeFileSync(file('certificate.json'), JSON.stringify(certificate, null, 2));
  writeFileSync(file('keys.json'), await (await fetch(`${server.url}/.well-known/tyche-keys.json`)).text());
  writeFileSync(file('chain.json'), JSON.stringify(drand.info));
  const node = olderNode();
  const standalone = await downloadVerifier(server.url);
  return {
    server,
    drand,
    dir,
    file,
    drawn: { publicId: main.publicId, certificate, verifyUrl, receipts: await main.receipts() },
    receiptsBeforeSeal,
    open: { publicId: open.publicId, receipts: await open.receipts() },
    waiting: {
      publicId: waiting.publicId,
      receipts: await waiting.receipts(),
      round: sealed.seal.beacon.round,
    },
    exportPages,
    nodeVersion: node.version,
    async both(args, extraEnv = {}) {
      const [cli, mjs] = await Promise.all([
        runTyche(['verify', ...args], extraEnv),
        runStandalone(node.path, standalone.file, args, { cwd: standalone.dir, env: extraEnv }),
      ]);
      return { cli, mjs };
    },
    async stop() {
      await stop();
      rmSync(standalone.dir, { recursive: true, force: true });
    },
  };
}

/** Both verifiers agree: same exit status, same stdout, same error message. Returns the stdout. */
export function sameVerdict(runs: { cli: CliRun; mjs: CliRun }, code: number, what: string): string {
  const { cli, mjs } = runs;
  const shown = `${what}\n--- tyche verify\n${cli.stdout}${cli.stderr}--- tyche-verify.mjs\n${mjs.stdout}${mjs.stderr}`;
  assert.equal(cli.code, code, shown);
  assert.equal(mjs.code, code, shown);
  assert.equal(mjs.stdout, cli.stdout, shown);
  const message = (stderr: string) =>
    stderr.split('\n')[0].replace(/^(tyche verify|tyche-verify\.mjs): /, '');
  assert.equal(message(mjs.stderr), message(cli.stderr), shown);
  return cli.stdout + cli.stderr;
}
