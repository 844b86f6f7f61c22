import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CertificateV2, Receipt, Seal } from '../src/proof/v2-types.ts';
import { systemClock } from '../src/shared/clock.ts';
import { startChainServer } from '../test/helpers/chain-server.ts';
import { type FakeTsa, startFakeTsa, writeTsaTrust } from '../test/helpers/fake-tsa.ts';
import type { FakeDrand } from '../test/helpers/fake-upstreams.ts';
import type { ServerProcess } from '../test/helpers/server-process.ts';

export const TITLE = `Summer <b>giveaway</b> — 2 × “tickets” & 'more' 🎉`;
export const NAMES = [
  'alice',
  'bob_b',
  'Zoë',
  '<img src=x onerror=alert(1)>',
  'carol',
  'dave',
  'erin',
  'frank',
];

export interface VerifiableServer {
  server: ServerProcess;
  drand: FakeDrand;
  /** The server's DATA_DIR (its SQLite store, signing key included). */
  dataDir: string;
  /** With `tsa`: the fake TSA that dates the seal and the certificate (its root in TYCHE_TSA_TRUST). */
  tsa?: FakeTsa;
  publicId: string;
  entrants: { telegram_id: number; username: string }[];
  /** Each entrant's receipt as the owner's API gave it before the seal. */
  receipts: Receipt[];
  receiptsNow(): Promise<Receipt[]>;
  /** Seals now; with holdRound the fake relay keeps the committed round back until release(). */
  seal(options?: { holdRound?: boolean }): Promise<Seal>;
  /** Lets the committed round out and waits for the draw to complete by itself. */
  release(): Promise<CertificateV2>;
  stop(): Promise<void>;
}

/**
 * A real `tyche serve` on a local drand chain with real BLS signatures, with a verifiable
 * giveaway of twelve entrants (hostile names included), two winners and two reserves.
 */
export async function startVerifiableServer(options: { tsa?: boolean } = {}): Promise<VerifiableServer> {
  const tsa = options.tsa ? await startFakeTsa({ clock: systemClock, name: 'Fake TSA' }) : undefined;
  const { server, drand, dir, call, stop } = await startChainServer({
    env: {
      LOG_LEVEL: 'warn',
      TYCHE_DRAW_WAIT_MS: '0',
      ...(tsa
        ? {
            TYCHE_TSA_URLS: tsa.url,
            TYCHE_TSA_TRUST: writeTsaTrust(join(tmpdir(), `tyche-e2e-tsa-${process.pid}.pem`), [tsa]),
          }
        : {}),
    },
  });
  const giveaway = await call('POST', '/giveaways', {
    title: TITLE,
    description: 'Two winners, two reserves.\nDrawn from a public drand round <script>alert(1)</script>',
    winners_count: 2,
    reserve_count: 2,
  });
  const publicId: string = giveaway.public_id;
  const entrants = Array.from({ length: 12 }, (_, i) => ({
    telegram_id: 6_000_000_000 + i * 104_729,
    username: `${NAMES[i % NAMES.length]}${i}`,
  }));
  await call('POST', `/giveaways/${publicId}/participants`, { participants: entrants });
  const receiptsNow = () =>
    Promise.all(
      entrants.map(
        (e) => call('GET', `/giveaways/${publicId}/entrants/${e.telegram_id}/receipt`) as Promise<Receipt>,
      ),
    );
  const receipts = await receiptsNow();
  let sealed: Seal | undefined;

  return {
    server,
    drand,
    dataDir: join(dir, 'data'),
    tsa,
    publicId,
    entrants,
    receipts,
    receiptsNow,
    async seal(options = {}) {
      const res = await call('POST', `/giveaways/${publicId}/seal`, {});
      sealed = res.seal as Seal;
      // The committed round lies at least two rounds ahead: time enough to hold it back.
      if (options.holdRound) drand.withhold(sealed.beacon.round);
      return sealed;
    },
    async release() {
      drand.withhold(undefined);
      const deadline = Date.now() + 60_000;
      for (;;) {
        const g = await call('GET', `/giveaways/${publicId}`);
        if (g.status === 'completed') {
          const res = await fetch(`${server.url}/verify/${g.certificate_id}.json`);
          return (await res.json()) as CertificateV2;
        }
        assert.ok(Date.now() < deadline, `the draw did not complete: ${g.status}`);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    },
    async stop() {
      await stop();
      await tsa?.close();
    },
  };
}
