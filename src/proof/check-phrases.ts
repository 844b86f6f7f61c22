// The checks' words as stable codes (CONTRACT §7.8): each line a verifier prints is English, for
// the CLI and tyche-verify.mjs, and also carries the code of its label and of its detail with the
// values the sentence names, so a page can say it in its reader's language from the catalogue
// (pages.ftl, `chk-label-<code>` and `chk-<code>`). A detail with no code here stays in English.

/** Each detail code with its English, `{name}` standing for a value. */
export const CHECK_DETAILS = {
  'cannot-check': 'cannot be checked: {error}',
  'format-ok': 'readable as {algorithm}',
  'signature-ok': 'valid, by published key {kid}',
  'hash-ok': 'SHA-256 of the canonical JSON is {hash}',
  'seal-hash-ok': "SHA-256 of the seal's canonical JSON is its hash",
  'beacon-chain-quicknet': 'the seal commits to quicknet (built in)',
  'beacon-chain-given': 'the seal commits to the given chain {chain}',
  'beacon-chain-unknown':
    "the seal commits to drand chain {chain}, which this verifier does not know: quicknet is built in, another chain's /info must be given",
  'seal-rounds-ok':
    "round {round} (due {due}) is at least 2 rounds after the newest round at sealing ({after}) and after the seal's time ({sealed})",
  'ticket-ok': 'your entry was acknowledged on {at}',
  'ticket-not-object': 'the ticket is not a JSON object',
  'ticket-type': 'type is {type}, not "{expected}"',
  'ticket-giveaway': 'the ticket is for giveaway {giveaway}, not {expected}',
  'ticket-leaf': 'the ticket is for leaf {leaf}, your code gives {expected}',
  'ticket-hash-ok': "SHA-256 of the ticket's canonical JSON",
  'receipt-format-ok': 'a readable receipt and tyche-seal-v2',
  'receipt-leaf-ok': 'leaf_hash {leaf}',
  'receipt-leaf-other': 'salt and telegram_id hash to {leaf}, not {given}',
  'receipt-seal-by-hash': 'seal {seal}, hash {hash} as the receipt names it: {count} entrants, root {root}',
  'receipt-seal-by-id':
    'seal {seal}, matched by id only (the receipt has no seal_hash: a re-made seal with this id would pass): {count} entrants, root {root}',
  'receipt-seal-by-root':
    'seal {seal}, matched by count and root only (the receipt names no seal): {count} entrants, root {root}',
  'receipt-seal-other-id': 'the receipt is for seal {given}, not {seal}',
  'receipt-seal-other-hash':
    "the seal is not the one this receipt was issued under: hash {hash} ≠ {given} (the receipt's seal_hash)",
  'receipt-seal-other-count': 'the receipt says {given} entrants, the seal {count}',
  'receipt-seal-other-root': "the receipt's root {given} is not the sealed root {root}",
  'receipt-proof-ok': 'this entrant is index {index} of the {count} sealed entrants',
  'receipt-proof-bad': 'the proof does not put this entrant at index {index} of the sealed list',
  'certificate-ok': 'every check of the certificate passes',
  'certificate-failed': 'failed: {failed}',
  'certificate-seal-ok': 'the certificate draws from this seal',
  'certificate-seal-bad': 'the certificate is not for this seal',
  'outcome-not-drawn': 'not drawn: index {index} is not among the {drawn} drawn',
  'outcome-winner': 'drawn as winner {position}, and listed so',
  'outcome-reserve': 'drawn as reserve (position {position}), and listed so',
  'outcome-winner-unlisted':
    'the draw makes this entrant winner {position}, but the certificate lists someone else there',
  'outcome-reserve-unlisted':
    'the draw makes this entrant reserve (position {position}), but the certificate lists someone else there',
  'outcome-round-not-drawn':
    'not drawn: index {index} is not among the {drawn} drawn, computed from the seal and drand round {round}, without a certificate',
  'outcome-round-winner':
    'drawn as winner {position}, computed from the seal and drand round {round}, without a certificate',
  'outcome-round-reserve':
    'drawn as reserve (position {position}), computed from the seal and drand round {round}, without a certificate',
  'relay-round-ok':
    "round {round} as the relay serves it is signed by the chain's key and randomness = SHA-256(signature)",
  'relay-round-bad': 'the round read from the relay: {problem}',
  'drawn-none': 'none drawn',
  'drawn-indices': 'indices {indices} of {count}, re-drawn from the seed',
  'leaves-ok': 'each listed leaf_hash is SHA-256(0 ‖ "tyche-entrant-v2" ‖ 0 ‖ salt ‖ telegram_id)',
  'proofs-ok': 'each listed entrant is at its index in the sealed list of {count} (root {root})',
  'entrants-ok': 'the {count} entrants rebuild the sealed root {root}',
  'beacon-record-ok': 'round {round} as served by the relay is the one in the certificate',
  'beacon-signature-ok': "round {round} is signed by the chain's key and randomness = SHA-256(signature)",
  'beacon-round-ok': 'round {round}, as sealed',
  'beacon-round-other': 'the certificate uses round {round}, the seal commits to round {sealed}',
  'seed-v2-ok': 'SHA-256("{algorithm}" ‖ 0 ‖ seal hash ‖ round randomness) = {seed}',
  'seed-other': 'recomputed {seed}, the certificate says {given}',
  'randomness-private': '32 bytes from the private source {source}',
  'randomness-beacon':
    'R = SHA-256(beacon value ‖ system entropy); the beacon value should match {source} record {reference}',
  'seed-v1-ok': 'SHA-256("{algorithm}" ‖ 0 ‖ participants_hash ‖ R) = {seed}',
  'winners-v1-ok': '{algorithm} picks canonical indices {indices} of {count}, as listed',
  'participants-ok': "hash {hash} matches; every winner's telegram_id is at its index",
  'operator-trust': "the operator's randomness must be trusted",
  'amendments-ok':
    '{count} amendment(s) in sequence, each chained to the one before by its hash, signed by a published key, and taking the next unused reserve',
  'amended-winners-ok':
    "the winners published as amended are the certificate's winners after {count} amendment(s)",
  'log-checkpoint-given': '{origin} at size {size}, signed by the log key (given with {given})',
  'log-checkpoint-pinned-earlier': '{origin} at size {size}, signed by the log key (pinned earlier)',
  'log-checkpoint-pinned-now': '{origin} at size {size}, signed by the log key (pinned now, on first use)',
  'log-consistency-ok': 'the log only grew since size {size}, seen before',
  'log-inclusion-ok': 'it is entry {index} of the log of size {size}',
  'log-key-ok': 'its key was announced in the log before entry {index} and not retired',
  'witnessed-trusted':
    'the seal is entry {index} of the checkpoint at size {size}, which the log at size {fresh} extends; cosigned by {cosigners} witness(es) you trust, {before} of them before the round',
  'witnessed-untrusted':
    'the seal is entry {index} of the checkpoint at size {size}, which the log at size {fresh} extends; it carries {lines} cosignature(s), none by a witness key you gave',
  'seal-witnessed': 'seal witnessed before the round by {count} witness(es)',
  'seal-time-operator-only': 'seal time attested by the operator only',
  'seal-time-outside':
    'operator-proof: seal witnessed or timestamped before the round ({witnesses} witness(es), {tsas} TSA(s){required})',
  'timestamps-seal': 'seal timestamped before the round by {good} of {all} TSA(s){names}',
  'timestamps-certificate': 'draw timestamped after the round by {good} of {all} TSA(s){names}',
} as const;

export type DetailCode = keyof typeof CHECK_DETAILS;

/**
 * Label codes that are not a check's own id in a label table (V2_LABELS, V1_LABELS as `v1-<id>`,
 * AMENDMENT_CHECKS): each with its English.
 */
export const OTHER_LABELS = {
  ticket: 'Entry ticket',
  'ticket-hash': 'Ticket hash',
  'ticket-signature': 'Ticket signature',
  amendments: 'Amendments',
  'amended-winners': 'Amended winners',
  'log-key': 'Log key',
  'log-checkpoint': 'Log checkpoint',
  'log-consistency': 'Log consistency',
  'log-inclusion-seal': 'Log inclusion (seal)',
  'log-inclusion-certificate': 'Log inclusion (certificate)',
  'log-inclusion-result': 'Log inclusion (result)',
  'log-inclusion-amendment': 'Log inclusion (amendment {n})',
  'log-key-seal': 'Signing key in the log (seal)',
  'log-key-certificate': 'Signing key in the log (certificate)',
  'log-key-result': 'Signing key in the log (result)',
  'log-key-amendment': 'Signing key in the log (amendment {n})',
  'witnessed-checkpoint': 'Witnessed checkpoint',
  'seal-witness': 'Seal witnesses',
  'seal-time': 'Seal time',
  'seal-timestamps': 'Seal timestamps',
  'certificate-timestamps': 'Certificate timestamps',
  trust: 'Trust',
} as const;

export type Params = Record<string, string | number>;

/** A detail as its code and values, and the English it reads as (the CLI's, unchanged). */
export interface Phrase {
  code: DetailCode;
  params: Params;
  text: string;
}

/** Fills a template's `{name}` slots; a slot without a value stays as it is. */
export function fillSlots(template: string, params: Params): string {
  return template.replace(/\{([a-zA-Z]+)\}/g, (slot, name: string) =>
    name in params ? String(params[name]) : slot,
  );
}

/**
 * A coded detail. Its English is the template filled, or `text` where the English sentence has
 * forms the template does not (plurals, an optional clause): the CLI's words never change.
 */
export function phrase(code: DetailCode, params: Params = {}, text?: string): Phrase {
  return { code, params, text: text ?? fillSlots(CHECK_DETAILS[code], params) };
}
