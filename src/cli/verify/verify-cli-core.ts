// The one command-line verifier: `tyche verify` runs it, and tyche-verify.mjs is this module
// bundled for plain Node >= 20. It reads the inputs (fetch, node:fs), runs proof/verifier.ts —
// the checks the server, the page and the receipt page run too — and prints one line per check.

import type { ParseArgsConfig } from 'node:util';
import { parseChainInfo } from '../../proof/drand.ts';
import { KEYS_PATH } from '../../proof/keys-path.ts';
import type { DrandChainInfo } from '../../proof/v2-types.ts';
import { parseOptions, UsageError } from '../command.ts';
import { verifyCertificateFrom } from './verify-certificate-cli.ts';
import { emit } from './verify-cli-output.ts';
import { nodeSha256, type VerifyArgs, type VerifyContext, type VerifyIo } from './verify-context.ts';
import { CannotCheck, EXIT_CANNOT_CHECK, loadJson, type Source, sourceOf, whereOf } from './verify-inputs.ts';
import { verifyReceiptFrom } from './verify-receipt-cli.ts';
import { verifyResultFrom } from './verify-result-cli.ts';

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
  json: { type: 'boolean' },
} as const satisfies ParseArgsConfig['options'];

/** The two forms of the command line; `again` starts the second line (the command, indented). */
export const verifyUsage = (first: string, again: string) =>
  [
    `${first} CERTIFICATE_ID|VERIFY_URL|FILE.json [--keys URL|FILE] [--participants participants.csv]`,
    '    [--entrants entrants.json] [--drand-chain info.json|URL] [--beacon [--relay URL]]',
    '    [--log-key VKEY] [--witness VKEY]... [--json]',
    `${again} --receipt RECEIPT_URL|RECEIPT.json [--keys URL|FILE] [--drand-chain info.json|URL] [--json]`,
    `${again} --result RESULT.json|URL [--keys URL|FILE] [--json]`,
  ].join('\n');

export const VERIFY_SUMMARY = `Re-check a draw independently, one line per check.

tyche-draw-v2 (verifiable): the seal's hash, Ed25519 signature and round rules, the drand round's BLS
signature under the chain's key (quicknet's is built in; --drand-chain takes another chain's /info as
a file or URL), the seed, the winners' and reserves' indices, each winner's leaf and inclusion proof
against the sealed root, and the certificate's hash and signature. --entrants (the owner's export of
GET /api/v1/giveaways/{id}/entrants: one page, a JSON list, or pages one after the other) rebuilds the
root from every entrant; --beacon compares the round with a drand relay's copy (--relay URL, else
DRAND_URL, else the relay the giveaway's public page names).

tyche-draw-v1 (instant): the certificate's hash and signature, R, the seed and the winners; with
--participants (participants.csv) the participant list; with --beacon, for a NIST or drand draw, the
beacon value against the public record (NIST_BEACON_URL, DRAND_URL or --relay name other relays). Its
verdict says that the operator's randomness must be trusted.

--receipt checks one entrant: a receipt URL (…/g/{id}/receipt#<telegram_id>.<salt>) or a saved
receipt JSON — the signed ticket, the leaf, the proof against the signed seal, and once drawn
whether that entrant won.

--result checks a signed random result (a response of /api/v1/random/* asked with signed=true, or
the document of GET /api/v1/operations/{id} that holds it as "result"): the SHA-256 of its canonical
JSON, the Ed25519 signature under a published key, and that key's life at the result's issued_at.
A valid signature proves who issued these values, under which serial and when; how they were drawn is
the operator's word.

A certificate or receipt read from its server is also checked against the server's transparency log: a fresh
checkpoint signed by the log key (pinned on first use under $XDG_STATE_HOME/tyche, or --log-key VKEY)
and consistent with the newest one seen before, the seal's and certificate's inclusion, their signing
key as the log announced it, and the seal's witnesses under the keys given with --witness (repeatable)
or TYCHE_WITNESSES: "seal witnessed before the round by N witnesses" or "seal time attested by the
operator only".

A certificate id is fetched from PUBLIC_BASE_URL, a URL from its own server (keys from that server's
${KEYS_PATH}); a file's keys come from PUBLIC_BASE_URL or --keys. --json prints one JSON object.
Exit status: 0 valid, 1 a check failed, 2 usage, ${EXIT_CANNOT_CHECK} the inputs could not be fetched or read.`;

/** tyche-verify.mjs's own reading of its command line (tyche's is done by its command table). */
export function parseVerifyArgs(argv: string[]): VerifyArgs & { help: boolean } {
  const args = parseOptions(VERIFY_OPTIONS, argv);
  return { ...args, help: args.values.help === true };
}

function checkUsage({ values, positionals }: VerifyArgs): void {
  if (values.relay !== undefined && !values.beacon) throw new UsageError('--relay goes with --beacon');
  if (values.result !== undefined) {
    if (positionals.length > 0 || values.receipt !== undefined)
      throw new UsageError('--result takes the signed result, and nothing else');
    for (const option of [
      'participants',
      'entrants',
      'beacon',
      'drand-chain',
      'log-key',
      'witness',
    ] as const) {
      if (values[option] !== undefined)
        throw new UsageError(`--${option} checks a draw, not a signed result`);
    }
    return;
  }
  if (values.receipt !== undefined) {
    if (positionals.length > 0) throw new UsageError('--receipt takes the receipt, and nothing else');
    for (const option of ['participants', 'entrants', 'beacon'] as const) {
      if (values[option] !== undefined)
        throw new UsageError(`--${option} checks a certificate, not a receipt`);
    }
    return;
  }
  if (positionals.length !== 1) throw new UsageError('give exactly one CERTIFICATE_ID, VERIFY_URL or FILE');
}

async function readChain(option: string): Promise<DrandChainInfo> {
  const source: Source = sourceOf(option);
  const json = await loadJson(source, 'drand chain info');
  try {
    return parseChainInfo(json);
  } catch (error) {
    throw new CannotCheck(`${whereOf(source)} is not a drand chain's /info: ${(error as Error).message}`);
  }
}

/**
 * Runs one verification and returns the exit status. Inputs that cannot be read are reported on
 * stderr (status 3); a UsageError is left to the caller, which knows how to print its usage.
 */
export async function runVerify(args: VerifyArgs, io: VerifyIo, program: string): Promise<number> {
  checkUsage(args);
  const { values } = args;
  try {
    const chainOption = values['drand-chain'] as string | undefined;
    const context: VerifyContext = {
      values,
      io,
      sha256: nodeSha256,
      chains: chainOption === undefined ? [] : [await readChain(chainOption)],
      keysOption: values.keys as string | undefined,
    };
    const result =
      values.result !== undefined
        ? await verifyResultFrom(values.result as string, context)
        : values.receipt !== undefined
          ? await verifyReceiptFrom(values.receipt as string, context)
          : await verifyCertificateFrom(args.positionals[0], context);
    return emit(result, io.out, values.json === true);
  } catch (error) {
    if (!(error instanceof CannotCheck)) throw error;
    io.err(`${program}: ${error.message}`);
    return EXIT_CANNOT_CHECK;
  }
}
