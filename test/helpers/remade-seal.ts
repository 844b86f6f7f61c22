import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { Seal } from '../../src/proof/v2-types.ts';
import { sealCertificate, signingKeyFromSecret } from '../../src/signing/certificate-crypto.ts';

/**
 * The seal re-made as its operator could: same id, list and round, `sealed_at` a second earlier,
 * signed again with the service's own key (read from the SQLite store under `dataDir`). Its hash
 * and signature check; only a receipt's `seal_hash` (or the log) tells it from the one published.
 */
export function remadeSeal(dataDir: string, seal: Seal): Seal {
  const db = new DatabaseSync(join(dataDir, 'tyche.sqlite'), { readOnly: true });
  try {
    const row = db.prepare('select private_seed from signing_keys where kid = ?').get(seal.signature.kid) as
      | { private_seed: string | null }
      | undefined;
    if (!row?.private_seed) throw new Error(`no stored secret for key ${seal.signature.kid}`);
    const { hash: _h, signature: _s, ...body } = seal;
    const sealedAt = new Date(Date.parse(seal.sealed_at) - 1000).toISOString();
    return sealCertificate({ ...body, sealed_at: sealedAt }, signingKeyFromSecret(row.private_seed)) as Seal;
  } finally {
    db.close();
  }
}
