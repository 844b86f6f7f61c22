// What the receipt page adds to the proof core: reading the receipt code, checking the entry
// ticket, and the words for an outcome. Pure, so it runs in the browser bundle and in tests alike.

import { type Phrase, phrase } from './check-phrases.ts';
import type { Sha256 } from './digest.ts';
import { type Check, isRecord, makeCheck } from './report.ts';
import { objectHashProblem, objectSignatureProblem } from './signed-object.ts';
import { type InclusionProof, type Receipt, type Seal, TICKET_TYPE, type Ticket } from './v2-types.ts';
import type { Outcome } from './verifier.ts';

export interface ReceiptCode {
  telegramId: number;
  /** 16 bytes, lower-case hex. */
  salt: string;
}

const CODE = /^([1-9][0-9]{0,15})\.([0-9a-fA-F]{32})$/;

/**
 * `<telegram_id>.<salt hex>`, as found after `#` in a receipt link; the whole link, or the code
 * with its `#`, is accepted too. A string says what is wrong.
 */
export function parseReceiptCode(text: string): ReceiptCode | string {
  let code = text.trim();
  const hash = code.lastIndexOf('#');
  if (hash >= 0) code = code.slice(hash + 1);
  try {
    code = decodeURIComponent(code).trim();
  } catch {
    return 'the receipt code is not readable';
  }
  if (code === '') return 'no receipt code';
  const match = CODE.exec(code);
  if (!match) return 'a receipt code is a Telegram id, a dot, and 32 hexadecimal characters';
  const telegramId = Number(match[1]);
  if (!Number.isSafeInteger(telegramId)) return 'the Telegram id in the receipt code is too large';
  return { telegramId, salt: match[2].toLowerCase() };
}

/** The signed entry ticket: proof that this entry was acknowledged, whatever the sealed list says. */
export function ticketChecks(
  ticket: unknown,
  expected: { publicId: string; leafHash: string },
  keys: unknown,
  sha256: Sha256,
): Check[] {
  if (!isRecord(ticket)) return [makeCheck('ticket', 'Entry ticket', phrase('ticket-not-object'), '')];
  let problem: Phrase | null = null;
  if (ticket.type !== TICKET_TYPE)
    problem = phrase('ticket-type', { type: JSON.stringify(ticket.type), expected: TICKET_TYPE });
  else if (ticket.giveaway !== expected.publicId)
    problem = phrase('ticket-giveaway', { giveaway: String(ticket.giveaway), expected: expected.publicId });
  else if (ticket.leaf_hash !== expected.leafHash)
    problem = phrase('ticket-leaf', { leaf: String(ticket.leaf_hash), expected: expected.leafHash });
  const kid = isRecord(ticket.signature) ? String(ticket.signature.kid) : '';
  return [
    makeCheck('ticket', 'Entry ticket', problem, phrase('ticket-ok', { at: String(ticket.joined_at) })),
    makeCheck('ticket-hash', 'Ticket hash', objectHashProblem(ticket, sha256), phrase('ticket-hash-ok')),
    makeCheck(
      'ticket-signature',
      'Ticket signature',
      objectSignatureProblem(ticket, keys),
      phrase('signature-ok', { kid }),
    ),
  ];
}

/**
 * The receipt to keep (CONTRACT §7.8); the sealed part once there is one, with the seal's
 * outside timestamps beside it (§13), as the receipt endpoint gives them.
 */
export function receiptDocument(input: {
  publicId: string;
  receiptUrl: string;
  code: ReceiptCode;
  leafHash: string;
  ticket: Ticket;
  proof?: InclusionProof;
  seal?: Seal;
  sealTimestamps?: readonly unknown[];
}): Receipt & { seal_timestamps?: unknown[] } {
  const { code, proof, seal } = input;
  const receipt: Receipt & { seal_timestamps?: unknown[] } = {
    giveaway: input.publicId,
    telegram_id: code.telegramId,
    salt: code.salt,
    leaf_hash: input.leafHash,
    receipt_url: `${input.receiptUrl}#${code.telegramId}.${code.salt}`,
    ticket: input.ticket,
  };
  if (proof && seal) {
    Object.assign(receipt, {
      index: proof.index,
      count: proof.count,
      root: proof.root,
      proof: proof.proof,
      seal_id: seal.seal_id,
      seal_hash: seal.hash,
    });
    if (input.sealTimestamps) receipt.seal_timestamps = [...input.sealTimestamps];
  }
  return receipt;
}

/** "You won", "reserve", or "not drawn", from the outcome the entrant's own browser computed. */
export function outcomeSentence(outcome: Outcome, winnersDrawn: number): { text: string; won: boolean } {
  if (outcome.position === undefined) return { text: 'You were not drawn this time.', won: false };
  if (outcome.reserve) {
    const reserve = outcome.position - winnersDrawn;
    return {
      text: `You are reserve #${reserve} (position ${outcome.position}): next in line, in order, if a winner is replaced.`,
      won: false,
    };
  }
  return { text: `You won: winner #${outcome.position}.`, won: true };
}

/**
 * What the receipt page and `tyche verify --receipt` say when the committed round is public but the
 * server has not published the certificate: the outcome shown was drawn by the entrant's own
 * verifier, and the server is late (or withholding the result).
 */
export function lateCertificateNotice(round: number, publicSince: string): string {
  return `round ${round} is public since ${publicSince}; the certificate is not published yet — the outcome above is computed from the seal and the round`;
}
