import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sha256 } from '../../../src/giveaways/draw/certificate.ts';
import { drawSeedV2, pickV2 } from '../../../src/proof/draw-v2.ts';
import { entrantLeafHash } from '../../../src/proof/entrant-leaf.ts';
import { fromHex, toHex } from '../../../src/proof/hex.ts';
import { splitLogAnnotations } from '../../../src/proof/log-entry.ts';
import { inclusionProofFromLeaves } from '../../../src/proof/merkle.ts';
import type { CertificateV2, EntrantWinner, Seal } from '../../../src/proof/v2-types.ts';
import { type SigningKey, sealCertificate } from '../../../src/signing/certificate-crypto.ts';
import type { TestApp } from '../../helpers/app.ts';

/**
 * What an operator holding the signing key can make after the round is known: the same giveaway
 * sealed again (same id, list and round, `sealed_at` a second earlier, so another seal hash and
 * another seed) and drawn again from it, every part signed with the service's own key. Each check
 * of the draw itself passes; only evidence from outside the operator can tell it from the first.
 */
export function forgeDraw(
  genuine: CertificateV2,
  entrants: readonly { telegram_id: number; salt: string; username?: string | null }[],
  key: SigningKey,
): { seal: Seal; certificate: CertificateV2 } {
  const { hash: _h, signature: _s, ...sealBody } = genuine.seal;
  const sealedAt = new Date(Date.parse(sealBody.sealed_at) - 1000).toISOString();
  const seal = sealCertificate({ ...sealBody, sealed_at: sealedAt }, key) as Seal;
  const leaves = entrants
    .map((e) => ({ e, leaf: entrantLeafHash(fromHex(e.salt), e.telegram_id, sha256) }))
    .sort((a, b) => Buffer.compare(a.leaf, b.leaf));
  const packed = new Uint8Array(leaves.length * 32);
  for (const [i, { leaf }] of leaves.entries()) packed.set(leaf, i * 32);
  const seed = drawSeedV2(seal.hash, fromHex(genuine.beacon.randomness), sha256);
  const { winners_count: w, reserve_count: r } = seal.giveaway;
  const picks = pickV2(seed, leaves.length, w, r, sha256);
  const entry = (index: number, position: number): EntrantWinner => ({
    position,
    index,
    telegram_id: leaves[index].e.telegram_id,
    username: leaves[index].e.username ?? null,
    salt: leaves[index].e.salt,
    leaf_hash: toHex(leaves[index].leaf),
    proof: inclusionProofFromLeaves(packed, leaves.length, index, sha256).map(toHex),
  });
  // The published document carries its log annotations beside the signed members.
  const { hash: _ch, signature: _cs, ...body } = splitLogAnnotations(genuine).signed as CertificateV2;
  const certificate = sealCertificate(
    {
      ...body,
      seal,
      seed: toHex(seed),
      winners: picks.winners.map((index, i) => entry(index, i + 1)),
      reserves: picks.reserves.map((index, i) => entry(index, picks.winners.length + i + 1)),
    },
    key,
  ) as CertificateV2;
  return { seal, certificate };
}

/**
 * The forger's re-logging by appending: the forged seal and certificate entered in the log, in one
 * transaction, as the service would. Returns their log indexes.
 */
export async function appendForgedDraw(
  t: Pick<TestApp, 'store' | 'services'>,
  forged: { seal: Seal; certificate: CertificateV2 },
  at: number,
): Promise<{ log_index: number; seal_log_index: number }> {
  const [sealIndex, certIndex] = await t.store.db
    .transaction()
    .execute(async (trx) => [
      await t.services.transparency.appendSigned(trx, 'seal', forged.seal.seal_id, forged.seal, at),
      await t.services.transparency.appendSigned(
        trx,
        'certificate',
        forged.certificate.certificate_id,
        forged.certificate,
        at,
      ),
    ]);
  return { log_index: certIndex, seal_log_index: sealIndex };
}

/** An answer the front gives instead of the service's. */
export type FrontAnswer = { json: unknown } | { text: string } | undefined;

/**
 * The service behind a front that answers some paths itself (a forged certificate, a forked log)
 * and passes every other request through, as an operator's own server could.
 */
export async function front(
  upstream: string,
  answer: (url: URL) => FrontAnswer,
): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer(async (req, res) => {
    const own = answer(new URL(req.url ?? '/', 'http://front'));
    if (own) {
      const json = 'json' in own;
      res.writeHead(200, { 'content-type': json ? 'application/json' : 'text/plain; charset=utf-8' });
      res.end(json ? JSON.stringify(own.json) : own.text);
      return;
    }
    const passed = await fetch(`${upstream}${req.url}`, { headers: { accept: req.headers.accept ?? '*/*' } });
    res.writeHead(passed.status, { 'content-type': passed.headers.get('content-type') ?? 'text/plain' });
    res.end(Buffer.from(await passed.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
