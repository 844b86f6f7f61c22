// What every flow of the verifier (certificate, receipt, signed result) is handed: the parsed
// command line, the reader's environment and the hash, so the flows need nothing from the
// dispatcher that chooses between them.

import { createHash } from 'node:crypto';
import type { Sha256 } from '../../proof/digest.ts';
import { KEYS_PATH } from '../../proof/keys-path.ts';
import type { DrandChainInfo } from '../../proof/v2-types.ts';
import { type Source, sourceOf } from './verify-inputs.ts';

export type VerifyArgs = { values: Record<string, string | boolean | undefined>; positionals: string[] };

export interface VerifyIo {
  out(line: string): void;
  err(line: string): void;
  env: Record<string, string | undefined>;
  /** The server a bare certificate id, or a file's keys, are read from. */
  baseUrl(): string;
}

/** What both flows are given: the parsed options, the reader's environment and the hash. */
export interface VerifyContext {
  values: VerifyArgs['values'];
  io: VerifyIo;
  sha256: Sha256;
  chains: DrandChainInfo[];
  keysOption?: string;
  /** --require-outside N: how many outside attestations must date the seal before its round (0: none). */
  requireOutside: number;
  /** --tsa-trust FILE: PEM text of RFC 3161 anchors the reader adds to the shipped roots. */
  tsaTrust: string[];
}

export const nodeSha256: Sha256 = (data) => new Uint8Array(createHash('sha256').update(data).digest());

export const trimSlash = (url: string) => url.replace(/\/+$/, '');

/**
 * The signing keys: --keys when given, else the keys document of the server the input came from
 * (asked only then: the default server may come from configuration that --keys makes moot).
 */
export function keysSource(context: VerifyContext, server: () => string): Source {
  return context.keysOption === undefined ? { url: `${server()}${KEYS_PATH}` } : sourceOf(context.keysOption);
}
