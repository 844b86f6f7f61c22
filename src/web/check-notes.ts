// The pages' own lines in a check list, beside the verifier's: what the browser computed itself,
// and what it could not ask. Each with its catalogue key (pages.ftl) and English; said through
// the page's check words (check-list.ts), so a Russian page shows them in Russian.

import { fillSlots, type Params } from '../proof/check-phrases.ts';
import { checkWord, note, type ShownCheck } from './check-list.ts';

export const CHECK_NOTES = {
  leafLabel: { key: 'chk-label-leaf', en: 'Leaf hash' },
  leafComputed: { key: 'chk-note-leaf-computed', en: '{leaf}: computed here from your Telegram id and salt' },
  ticketLabel: { key: 'chk-label-ticket', en: 'Entry ticket' },
  noEntry: { key: 'chk-note-no-entry', en: 'this giveaway has no entry with your receipt code' },
  sealedListLabel: { key: 'chk-label-sealed-list', en: 'Sealed list' },
  notSealed: { key: 'chk-note-not-sealed', en: 'not sealed yet: there is no list to check your place in' },
  proofLabel: { key: 'chk-label-receipt-proof', en: 'Receipt inclusion proof' },
  notInList: { key: 'chk-note-not-in-list', en: 'your entry is not in the sealed list' },
  roundLabel: { key: 'chk-label-drand-round', en: 'drand round' },
  roundUnreadable: {
    key: 'chk-note-round-unreadable',
    en: 'round {round} is not readable yet from {url}: {problem}',
  },
  relayLabel: { key: 'chk-label-beacon-record', en: 'drand relay record' },
  relayUnread: { key: 'chk-note-relay-unread', en: 'not compared: could not read {url}: {problem}' },
  certificateLabel: { key: 'chk-label-certificate', en: 'Certificate' },
  late: {
    key: 'chk-note-late',
    en: 'round {round} is public since {at}; the certificate is not published yet — the outcome above is computed from the seal and the round',
  },
  checkLabel: { key: 'chk-label-check', en: 'Check' },
  chainKeyLabel: { key: 'chk-label-chain-key', en: 'drand chain key' },
  chainKeyRead: {
    key: 'chk-note-chain-key-read',
    en: 'chain {chain} is not quicknet: its public key was read from {url}',
  },
  chainKeyUnread: { key: 'chk-note-chain-key-unread', en: 'could not read {url}: {problem}' },
  logLabel: { key: 'chk-label-log', en: 'Transparency log' },
  logNoCertificateEntry: {
    key: 'chk-note-log-no-certificate-entry',
    en: 'not checked: this certificate names no log entry',
  },
  logNoSealEntry: {
    key: 'chk-note-log-no-seal-entry',
    en: 'not checked: this giveaway names no log entry for its seal',
  },
} as const;

export type CheckNoteName = keyof typeof CHECK_NOTES;

/** One of these lines in the page's language. */
export function noteWord(name: CheckNoteName, params: Params = {}): string {
  const { key, en } = CHECK_NOTES[name];
  return checkWord(key, params, fillSlots(en, params));
}

/** A note line (not counted as a check) in the page's language. */
export const noteLine = (label: CheckNoteName, detail: CheckNoteName, params: Params = {}): ShownCheck =>
  note(noteWord(label, params), noteWord(detail, params));

/** A line of the given state in the page's language. */
export const line = (
  state: ShownCheck['state'],
  label: CheckNoteName,
  detail: CheckNoteName,
  params: Params = {},
): ShownCheck => ({ label: noteWord(label, params), state, detail: noteWord(detail, params) });
