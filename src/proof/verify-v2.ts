// The checks of a tyche-draw-v2 certificate (CONTRACT §7.7), each its own named line: the seal,
// the drand round, the seed, the re-drawn winners and reserves, each listed entrant's leaf and
// proof against the sealed root, the entrant list when given, and the certificate's own signature.

import { phrase } from './check-phrases.ts';
import type { Sha256 } from './digest.ts';
import { beaconProblem, type DrandBeaconRecord } from './drand.ts';
import { drawSeedV2, parseIsoMs, pickV2 } from './draw-v2.ts';
import { entrantLeafHash } from './entrant-leaf.ts';
import { fromHex, toHex } from './hex.ts';
import { treeSummary, verifyInclusion } from './merkle.ts';
import { type Check, guarded, HEX32, isCount, isRecord, type Report, report, shortList } from './report.ts';
import { objectHashProblem, objectSignatureProblem } from './signed-object.ts';
import { ALGORITHM_V2, type CertificateV2, type DrandChainInfo, type EntrantWinner } from './v2-types.ts';
import { checkOf, sealBeaconChecks, sealFormatProblem, sealOwnChecks, V2_LABELS } from './verify-seal.ts';

export interface VerifyV2Input {
  certificate: unknown;
  keys: unknown;
  sha256: Sha256;
  chains?: readonly DrandChainInfo[];
  entrants?: readonly { telegram_id: number; salt: string }[];
  beaconRecord?: DrandBeaconRecord;
}

const SALT_HEX = /^[0-9a-f]{32}$/;

function entryProblem(e: unknown, at: string): string | null {
  if (!isRecord(e)) return `${at} is not an object`;
  if (!isCount(e.position)) return `${at}.position is not a positive integer`;
  if (!Number.isSafeInteger(e.index) || (e.index as number) < 0)
    return `${at}.index is not a non-negative integer`;
  if (!isCount(e.telegram_id)) return `${at}.telegram_id is not a positive integer`;
  if (e.username !== null && typeof e.username !== 'string') return `${at}.username is not a string or null`;
  if (typeof e.salt !== 'string' || !SALT_HEX.test(e.salt))
    return `${at}.salt is not 16 bytes of lower-case hex`;
  if (typeof e.leaf_hash !== 'string' || !HEX32.test(e.leaf_hash))
    return `${at}.leaf_hash is not 64 lower-case hex`;
  if (!Array.isArray(e.proof) || !e.proof.every((p) => typeof p === 'string' && HEX32.test(p))) {
    return `${at}.proof is not a list of 64 lower-case hex`;
  }
  return null;
}

/** Why the certificate cannot be read as tyche-draw-v2, or null when it can. */
export function formatProblemV2(cert: unknown): string | null {
  if (!isRecord(cert)) return 'not a JSON object';
  if (cert.algorithm !== ALGORITHM_V2)
    return `algorithm ${JSON.stringify(cert.algorithm)} is not ${ALGORITHM_V2}`;
  if (typeof cert.certificate_id !== 'string') return 'certificate_id is not a string';
  const sealProblem = sealFormatProblem(cert.seal, 'seal.');
  if (sealProblem !== null) return sealProblem;
  const b = cert.beacon;
  if (!isRecord(b) || b.network !== 'drand') return 'beacon.network is not "drand"';
  if (typeof b.chain_hash !== 'string' || !HEX32.test(b.chain_hash))
    return 'beacon.chain_hash is not 64 lower-case hex';
  if (!isCount(b.round)) return 'beacon.round is not a positive integer';
  if (typeof b.randomness !== 'string' || !HEX32.test(b.randomness))
    return 'beacon.randomness is not 64 lower-case hex';
  if (typeof b.signature !== 'string' || !/^[0-9a-f]{96}$/.test(b.signature)) {
    return 'beacon.signature is not 48 bytes of lower-case hex';
  }
  if (typeof cert.seed !== 'string' || !HEX32.test(cert.seed)) return 'seed is not 64 lower-case hex';
  for (const list of ['winners', 'reserves'] as const) {
    const entries = cert[list];
    if (!Array.isArray(entries)) return `${list} is not a list`;
    for (const [i, e] of entries.entries()) {
      const problem = entryProblem(e, `${list}[${i}]`);
      if (problem !== null) return problem;
    }
  }
  if (Number.isNaN(parseIsoMs(cert.drawn_at)))
    return 'drawn_at is not an RFC 3339 UTC time with milliseconds';
  if (typeof cert.hash !== 'string' || !HEX32.test(cert.hash)) return 'hash is not 64 lower-case hex';
  if (!isRecord(cert.signature)) return 'signature is missing';
  return null;
}

function listCheck(
  id: 'winners' | 'reserves',
  listed: EntrantWinner[],
  drawn: number[],
  first: number,
  n: number,
) {
  if (listed.length !== drawn.length) {
    return checkOf(id, `${listed.length} listed, the draw gives ${drawn.length} of ${n} entrants`, '');
  }
  for (const [i, e] of listed.entries()) {
    if (e.position !== first + i + 1 || e.index !== drawn[i]) {
      const problem = `position ${first + i + 1} is canonical index ${drawn[i]}; the certificate lists position ${e.position}, index ${e.index}`;
      return checkOf(id, problem, '');
    }
  }
  const detail =
    drawn.length === 0
      ? phrase('drawn-none')
      : phrase('drawn-indices', { indices: shortList(drawn), count: n });
  return checkOf(id, null, detail);
}

function leavesCheck(entries: EntrantWinner[], sha256: Sha256): Check {
  for (const e of entries) {
    const leaf = toHex(entrantLeafHash(fromHex(e.salt), e.telegram_id, sha256));
    if (leaf !== e.leaf_hash) {
      return checkOf(
        'leaves',
        `position ${e.position}: salt and telegram_id hash to ${leaf}, not ${e.leaf_hash}`,
        '',
      );
    }
  }
  return checkOf('leaves', null, phrase('leaves-ok'));
}

function proofsCheck(entries: EntrantWinner[], cert: CertificateV2, sha256: Sha256): Check {
  const { count, root } = cert.seal.entrants;
  for (const e of entries) {
    if (!verifyInclusion(fromHex(e.leaf_hash), e.index, count, e.proof.map(fromHex), fromHex(root), sha256)) {
      return checkOf(
        'proofs',
        `position ${e.position} (index ${e.index}): the proof does not lead to the sealed root ${root}`,
        '',
      );
    }
  }
  return checkOf('proofs', null, phrase('proofs-ok', { count, root }));
}

function entrantsCheck(
  given: NonNullable<VerifyV2Input['entrants']>,
  cert: CertificateV2,
  sha256: Sha256,
): Check {
  // Lower-case hex sorts as the bytes do, so this is the canonical (ascending leaf_hash) order.
  const sorted = given.map((e) => toHex(entrantLeafHash(fromHex(e.salt), e.telegram_id, sha256))).sort();
  const { count, root } = cert.seal.entrants;
  if (sorted.length !== count)
    return checkOf('entrants', `the list has ${sorted.length} entrants, the seal ${count}`, '');
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i] === sorted[i - 1])
      return checkOf('entrants', `leaf ${sorted[i]} appears twice in the list`, '');
  }
  const rebuilt = toHex(treeSummary(fromHex(sorted.join('')), count, sha256).root);
  if (rebuilt !== root) return checkOf('entrants', `the list's root is ${rebuilt}, the seal's ${root}`, '');
  for (const e of [...cert.winners, ...cert.reserves]) {
    if (sorted[e.index] !== e.leaf_hash) {
      const problem = `position ${e.position}: index ${e.index} of the list is ${sorted[e.index]}, not ${e.leaf_hash}`;
      return checkOf('entrants', problem, '');
    }
  }
  return checkOf('entrants', null, phrase('entrants-ok', { count, root }));
}

function beaconRecordCheck(
  record: unknown,
  cert: CertificateV2,
  chain: DrandChainInfo | undefined,
  sha256: Sha256,
) {
  if (!isRecord(record)) return checkOf('beacon-record', 'the relay record is not a JSON object', '');
  const { round, randomness, signature } = cert.beacon;
  if (record.round !== round)
    return checkOf('beacon-record', `the relay record is of round ${String(record.round)}, not ${round}`, '');
  const same = (field: 'randomness' | 'signature', value: string) =>
    typeof record[field] === 'string' && (record[field] as string).toLowerCase() === value;
  if (!same('randomness', randomness))
    return checkOf(
      'beacon-record',
      `the relay's randomness is ${String(record.randomness)}, not ${randomness}`,
      '',
    );
  if (!same('signature', signature))
    return checkOf('beacon-record', `the relay's signature differs from the certificate's`, '');
  const problem = chain ? beaconProblem(chain, record as unknown as DrandBeaconRecord, sha256) : null;
  if (problem !== null)
    return checkOf('beacon-record', `the relay record itself does not verify: ${problem}`, '');
  return checkOf('beacon-record', null, phrase('beacon-record-ok', { round }));
}

/** Every check of a tyche-draw-v2 certificate; never throws on bad data. */
export function verifyCertificateV2(input: VerifyV2Input): Report {
  const { certificate, keys, sha256 } = input;
  const problem = formatProblemV2(certificate);
  const checks: Check[] = [checkOf('format', problem, phrase('format-ok', { algorithm: ALGORITHM_V2 }))];
  const record = isRecord(certificate) ? certificate : undefined;
  if (record && isRecord(record.seal)) checks.push(...sealOwnChecks(record.seal, sha256, keys));
  if (problem === null) checks.push(...drawChecks(input, certificate as CertificateV2));
  if (record) {
    const kid = isRecord(record.signature) ? String(record.signature.kid) : '';
    checks.push(
      checkOf('hash', objectHashProblem(record, sha256), phrase('hash-ok', { hash: String(record.hash) })),
      checkOf('signature', objectSignatureProblem(record, keys), phrase('signature-ok', { kid })),
    );
  }
  return report(ALGORITHM_V2, 'public', checks);
}

function drawChecks(input: VerifyV2Input, cert: CertificateV2): Check[] {
  const { sha256 } = input;
  const { seal, beacon } = cert;
  const { checks, chain } = sealBeaconChecks(seal, input.chains);
  if (chain) {
    if (beacon.chain_hash !== seal.beacon.chain_hash) {
      checks[0] = checkOf(
        'beacon-chain',
        `the beacon is from chain ${beacon.chain_hash}, the seal commits to ${seal.beacon.chain_hash}`,
        '',
      );
    } else {
      const label = V2_LABELS['beacon-signature'];
      checks.push(
        guarded('beacon-signature', label, () =>
          checkOf(
            'beacon-signature',
            beaconProblem(chain, beacon, sha256),
            phrase('beacon-signature-ok', { round: beacon.round }),
          ),
        ),
      );
    }
  }
  checks.push(
    checkOf(
      'beacon-round',
      beacon.round === seal.beacon.round
        ? null
        : phrase('beacon-round-other', { round: beacon.round, sealed: seal.beacon.round }),
      phrase('beacon-round-ok', { round: beacon.round }),
    ),
  );
  if (input.beaconRecord !== undefined) {
    checks.push(
      guarded('beacon-record', V2_LABELS['beacon-record'], () =>
        beaconRecordCheck(input.beaconRecord, cert, chain, sha256),
      ),
    );
  }
  // The winners are re-drawn from the recomputed seed, so a wrong seed and wrong winners show separately.
  const seed = drawSeedV2(seal.hash, fromHex(beacon.randomness), sha256);
  const seedHex = toHex(seed);
  checks.push(
    checkOf(
      'seed',
      seedHex === cert.seed ? null : phrase('seed-other', { seed: seedHex, given: cert.seed }),
      phrase('seed-v2-ok', { algorithm: ALGORITHM_V2, seed: seedHex }),
    ),
  );
  const n = seal.entrants.count;
  const picks = pickV2(seed, n, seal.giveaway.winners_count, seal.giveaway.reserve_count, sha256);
  const entries = [...cert.winners, ...cert.reserves];
  checks.push(
    listCheck('winners', cert.winners, picks.winners, 0, n),
    listCheck('reserves', cert.reserves, picks.reserves, picks.winners.length, n),
    guarded('leaves', V2_LABELS.leaves, () => leavesCheck(entries, sha256)),
    guarded('proofs', V2_LABELS.proofs, () => proofsCheck(entries, cert, sha256)),
  );
  if (input.entrants) {
    const given = input.entrants;
    checks.push(guarded('entrants', V2_LABELS.entrants, () => entrantsCheck(given, cert, sha256)));
  }
  return checks;
}
