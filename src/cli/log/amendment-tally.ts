// What `tyche log verify` reads from the log's amendment entries (CONTRACT §14): each giveaway's
// amendments in log order, checked against the certificate the log holds for them by the same
// rules every verifier runs (proof/amendments.ts). A substitute that is not the next unused
// reserve, and a chain with a gap (a sequence skipped, a `previous` that is not the hash before
// it), are findings. Signatures are not judged here: the audit checks every entry's signature
// against the keys the log itself announced. A certificate logged as its digest lists no reserves
// in the log: its amendments are checked against the full certificate by tyche verify.

import { AMENDMENT_CHECKS, checkAmendments } from '../../proof/amendments.ts';
import { isCertificateDigest } from '../../proof/certificate-entry.ts';
import type { Sha256 } from '../../proof/digest.ts';
import { isRecord } from '../../proof/report.ts';

interface Chain {
  certificateHash: string;
  amendments: Record<string, unknown>[];
  indices: number[];
}

export function createAmendmentTally(sha256: Sha256) {
  const certificates = new Map<string, Record<string, unknown>>();
  const chains = new Map<string, Chain>();

  return {
    /** A certificate entry: the one its amendments must name by hash. */
    certificate(obj: Record<string, unknown>): void {
      const hash = isCertificateDigest(obj) ? obj.certificate_hash : obj.hash;
      if (typeof hash === 'string') certificates.set(hash, obj);
    },

    /** An amendment entry, in log order. */
    amendment(index: number, obj: Record<string, unknown>): void {
      const key = `${String(obj.giveaway)} ${String(obj.certificate_hash)}`;
      const chain = chains.get(key) ?? {
        certificateHash: String(obj.certificate_hash),
        amendments: [],
        indices: [],
      };
      chain.amendments.push(obj);
      chain.indices.push(index);
      chains.set(key, chain);
    },

    findings(): string[] {
      const found: string[] = [];
      for (const chain of chains.values()) {
        const first = chain.amendments[0];
        const giveaway = String(first.giveaway);
        const certificate = certificates.get(chain.certificateHash);
        if (!certificate) {
          found.push(
            `giveaway ${giveaway}: amendment ${String(first.amendment_id)} (entry ${chain.indices[0]}) amends certificate ${chain.certificateHash}, which the log does not hold before it`,
          );
          continue;
        }
        if (isCertificateDigest(certificate)) continue;
        const verdict = checkAmendments({ certificate, amendments: chain.amendments, keys: {}, sha256 });
        for (const f of verdict.failures.filter((f) => f.check !== 'amendment-signature')) {
          const a = chain.amendments[f.at - 1];
          const where = isRecord(a)
            ? `amendment ${String(a.amendment_id)} (entry ${chain.indices[f.at - 1]})`
            : '';
          found.push(`giveaway ${giveaway}: ${where}: ${AMENDMENT_CHECKS[f.check]}: ${f.detail}`);
        }
      }
      return found;
    },
  };
}
