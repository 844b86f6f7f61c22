// The one command-line verifier: `tyche verify` runs it, and tyche-verify.mjs is this module
// bundled for plain Node >= 20. It reads the inputs (fetch, node:fs), runs proof/verifier.ts —
// the checks the server, the page and the receipt page run too — and prints one line per check.

import { parseChainInfo } from '../../proof/drand.ts';
import { parseRequiredOutside } from '../../proof/outside-evidence.ts';
import { pemCertificates } from '../../proof/timestamp/pem.ts';
import type { DrandChainInfo } from '../../proof/v2-types.ts';
import { parseOptions, UsageError } from '../command.ts';
import { verifyCertificateFrom } from './verify-certificate-cli.ts';
import { emit } from './verify-cli-output.ts';
import { VERIFY_OPTIONS } from './verify-cli-usage.ts';
import { nodeSha256, type VerifyArgs, type VerifyContext, type VerifyIo } from './verify-context.ts';
import {
  CannotCheck,
  EXIT_CANNOT_CHECK,
  loadJson,
  readTextFile,
  type Source,
  sourceOf,
  whereOf,
} from './verify-inputs.ts';
import { verifyReceiptFrom } from './verify-receipt-cli.ts';
import { verifyResultFrom } from './verify-result-cli.ts';

/** tyche-verify.mjs's own reading of its command line (tyche's is done by its command table). */
export function parseVerifyArgs(argv: string[]): VerifyArgs & { help: boolean } {
  const args = parseOptions(VERIFY_OPTIONS, argv);
  return { ...args, help: args.values.help === true };
}

function checkUsage({ values, positionals }: VerifyArgs): void {
  if (values.relay !== undefined && !values.beacon && values.receipt === undefined) {
    throw new UsageError('--relay goes with --beacon or --receipt');
  }
  if (values.result !== undefined) {
    if (positionals.length > 0 || values.receipt !== undefined)
      throw new UsageError('--result takes the signed result, and nothing else');
    for (const option of [
      'participants',
      'entrants',
      'beacon',
      'drand-chain',
      'witness',
      'require-outside',
      'tsa-trust',
      'terms',
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

/** --tsa-trust FILE: PEM certificates trusted beside the shipped TSA roots (CONTRACT §13). */
function readTsaTrust(file: string | undefined): string[] {
  if (file === undefined) return [];
  const text = readTextFile(file, 'TSA trust');
  let blocks: Uint8Array[];
  try {
    blocks = pemCertificates(text);
  } catch (error) {
    throw new CannotCheck(`--tsa-trust ${file}: ${(error as Error).message}`);
  }
  if (blocks.length === 0) throw new CannotCheck(`--tsa-trust ${file} holds no CERTIFICATE block`);
  return [text];
}

/**
 * Runs one verification and returns the exit status. Inputs that cannot be read are reported on
 * stderr (status 3); a UsageError is left to the caller, which knows how to print its usage.
 */
export async function runVerify(args: VerifyArgs, io: VerifyIo, program: string): Promise<number> {
  checkUsage(args);
  const { values } = args;
  const requireOutside = parseRequiredOutside(values['require-outside'] as string | undefined);
  if (typeof requireOutside === 'string') throw new UsageError(`--require-outside: ${requireOutside}`);
  try {
    const chainOption = values['drand-chain'] as string | undefined;
    const context: VerifyContext = {
      values,
      io,
      sha256: nodeSha256,
      chains: chainOption === undefined ? [] : [await readChain(chainOption)],
      keysOption: values.keys as string | undefined,
      requireOutside,
      tsaTrust: readTsaTrust(values['tsa-trust'] as string | undefined),
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
