import type { ParseArgsConfig } from 'node:util';
import { KEYS_PATH } from '../../proof/keys-path.ts';
import { EXIT_CANNOT_CHECK } from './verify-inputs.ts';

// The command line of `tyche verify` and tyche-verify.mjs, apart from the verifier itself, so that
// listing the commands (every start of `tyche`, `serve` included) loads no verification code.

export const EXIT_USAGE = 2;

export const VERIFY_OPTIONS = {
  keys: { type: 'string' },
  participants: { type: 'string' },
  entrants: { type: 'string' },
  'drand-chain': { type: 'string' },
  beacon: { type: 'boolean' },
  relay: { type: 'string' },
  receipt: { type: 'string' },
  result: { type: 'string' },
  'log-key': { type: 'string' },
  witness: { type: 'string', multiple: true },
  'require-outside': { type: 'string' },
  'tsa-trust': { type: 'string' },
  terms: { type: 'string' },
  json: { type: 'boolean' },
} as const satisfies ParseArgsConfig['options'];

/** The two forms of the command line; `again` starts the second line (the command, indented). */
export const verifyUsage = (first: string, again: string) =>
  [
    `${first} CERTIFICATE_ID|VERIFY_URL|FILE.json [--keys URL|FILE] [--participants participants.csv]`,
    '    [--entrants entrants.json] [--drand-chain info.json|URL] [--beacon [--relay URL]]',
    '    [--log-key VKEY] [--witness VKEY]... [--require-outside N] [--tsa-trust FILE] [--terms FILE] [--json]',
    `${again} --receipt RECEIPT_URL|RECEIPT.json [--keys URL|FILE] [--drand-chain info.json|URL] [--relay URL]`,
    '    [--log-key VKEY] [--witness VKEY]... [--require-outside N] [--tsa-trust FILE] [--terms FILE] [--json]',
    `${again} --result RESULT.json|URL [--keys URL|FILE] [--log-key VKEY] [--json]`,
  ].join('\n');

export const VERIFY_SUMMARY = `Re-check a draw independently, one line per check.

tyche-draw-v2 (verifiable): the seal's hash, Ed25519 signature and round rules, the drand round's BLS
signature under the chain's key (quicknet's is built in; --drand-chain takes another chain's /info as
a file or URL), the seed, the winners' and reserves' indices, each winner's leaf and inclusion proof
against the sealed root, and the certificate's hash and signature. --entrants (the owner's export of
GET /api/v1/giveaways/{id}/entrants: one page, a JSON list, or pages one after the other) rebuilds the
root from every entrant; --beacon compares the round with a drand relay's copy (--relay URL, else
DRAND_URL, else the relay the giveaway's public page names). When winners were replaced after the
draw, each amendment's chain, signature, reserve order and log entry, then the winners as amended.

tyche-draw-v1 (instant): the certificate's hash and signature, R, the seed and the winners; with
--participants (participants.csv) the participant list; with --beacon, for a NIST or drand draw, the
beacon value against the public record (NIST_BEACON_URL, DRAND_URL or --relay name other relays). Its
verdict says that the operator's randomness must be trusted.

--receipt checks one entrant: a receipt URL (…/g/{id}/receipt#<telegram_id>.<salt>) or a saved
receipt JSON — the signed ticket, the leaf, the proof against the signed seal, and once the committed
drand round is public whether that entrant won: re-drawn from the certificate, or, while the server
has not published it, from the seal and the round itself (read from --relay URL, else DRAND_URL, else
the relay the giveaway's public page names), saying that the certificate is late.

--terms FILE checks a giveaway's terms against its seal (a certificate's, or a receipt's giveaway's): the
SHA-256 of the file's bytes, exactly as read, must be the seal's giveaway.terms_sha256. Save the terms as
published (the "terms" member of /g/{public_id}.json); the failure names a seal made before terms were
committed, a seal that commits to no terms, or another hash (and a copy that differs only by its line
breaks or a byte-order mark).

--result checks a signed random result (a response of /api/v1/random/* asked with signed=true, or
the document of GET /api/v1/operations/{id} that holds it as "result"): the SHA-256 of its canonical
JSON, the Ed25519 signature under a published key, and that key's life at the result's issued_at;
then its entry in the server's transparency log (the server of --keys URL, else the default one; not
with a keys file), which counts it as result N of its account, so that "tyche log verify --account"
lists that account's other results. A valid signature proves who issued these values, under which
serial and when; how they were drawn is the operator's word.

A certificate or receipt read from its server, or a counted result, is also checked against the server's
transparency log: a fresh checkpoint signed by the log key (pinned on first use under
$XDG_STATE_HOME/tyche, or --log-key VKEY) and consistent with the newest one seen before, the seal's,
certificate's or result's inclusion, their signing key as the log announced it, and the seal's
witnesses under the keys given with --witness (repeatable) or TYCHE_WITNESSES, counted only when the
fresh checkpoint extends the one they cosigned. The seal's time gets one verdict: "operator-proof:
seal witnessed or timestamped before the round" or, as a warning, "seal time attested by the operator
only"; --require-outside N makes it a failure unless N outside attestations (witnesses you trust
and valid TSA tokens, counted together) date the seal before its round.

Every RFC 3161 token a seal or certificate carries (seal_timestamps, certificate_timestamps) is
checked against the TSA roots this verifier ships, plus --tsa-trust FILE (PEM), never against the
token's own chain: a seal's token must date it before the round ("seal timestamped before the round
by N of M TSAs"), a certificate's after the round and not in the future. A token that fails is named
with its reason and fails the verification; a seal with no token is left to the verdict above.

A certificate id is fetched from PUBLIC_BASE_URL, a URL from its own server (keys from that server's
${KEYS_PATH}); a file's keys come from PUBLIC_BASE_URL or --keys. --json prints one JSON object.
Exit status: 0 valid, 1 a check failed, 2 usage, ${EXIT_CANNOT_CHECK} the inputs could not be fetched or read.`;
