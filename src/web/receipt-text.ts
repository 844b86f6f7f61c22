// The receipt page script's own words: each with its catalogue key (pages.ftl), the `{name}`
// slots the script fills, and the English the script falls back to. The server renders them in
// the page's language into the page (receipt-page.ts); the script reads them there
// (check-list.ts pageText). No import: the script and the server both load this table.

export const RECEIPT_TEXT_KEYS = {
  telegramId: { key: 'rc-telegram-id', slots: [], en: 'Telegram ID' },
  leafHash: { key: 'rc-leaf-hash', slots: [], en: 'Leaf hash' },
  index: { key: 'rc-index', slots: [], en: 'Index in canonical order (0-based, technical)' },
  seal: { key: 'rc-seal', slots: [], en: 'Seal' },
  sealHash: { key: 'rc-seal-hash', slots: [], en: 'Seal hash' },
  round: { key: 'rc-round', slots: [], en: 'Committed drand round' },
  roundValue: { key: 'rc-round-value', slots: ['round', 'at'], en: '{round}, due {at}' },
  noTicket: {
    key: 'rc-no-ticket',
    slots: [],
    en: 'this giveaway has no entry with this receipt code: check that the link is complete',
  },
  ticketLabel: { key: 'rc-ticket-label', slots: [], en: 'Entry ticket' },
  instant: {
    key: 'rc-instant',
    slots: [],
    en: "This giveaway is drawn instantly: there is no sealed list, and the operator's randomness must be trusted.",
  },
  instantPending: { key: 'rc-instant-pending', slots: ['then'], en: 'Your entry is acknowledged. {then}' },
  instantWon: {
    key: 'rc-instant-won',
    slots: ['position', 'then'],
    en: 'The certificate lists you as winner #{position}. {then}',
  },
  instantNotWon: {
    key: 'rc-instant-not-won',
    slots: ['then'],
    en: 'The certificate does not list you among the winners. {then}',
  },
  notSealedNote: {
    key: 'rc-not-sealed-note',
    slots: [],
    en: 'not sealed yet: there is no list to check your place in',
  },
  sealedListLabel: { key: 'rc-sealed-list-label', slots: [], en: 'Sealed list' },
  closesAt: { key: 'rc-closes-at', slots: ['at'], en: 'Entries close on {at}.' },
  closesBySeal: {
    key: 'rc-closes-by-seal',
    slots: [],
    en: 'Entries close when the organiser seals the list.',
  },
  notSealed: {
    key: 'rc-not-sealed',
    slots: ['closes'],
    en: 'Your entry ticket is signed. The list is not sealed yet. {closes} Come back after that to check your place.',
  },
  missing: {
    key: 'rc-missing',
    slots: ['count'],
    en: 'your entry is not in the sealed list of {count} entrants, although your signed ticket shows it was acknowledged. Save this receipt: it is your evidence.',
  },
  place: {
    key: 'rc-place',
    slots: ['place', 'count'],
    en: 'You are entrant #{place} of {count} in the sealed list.',
  },
  inList: {
    key: 'rc-in-list',
    slots: ['round', 'at'],
    en: 'You are in the sealed list. The draw uses drand round {round}, due {at}: come back after it to see whether you won.',
  },
  won: { key: 'rc-won', slots: ['position'], en: 'You won: winner #{position}.' },
  reserve: {
    key: 'rc-reserve',
    slots: ['reserve'],
    en: 'You are reserve #{reserve}: next in line, in order, if a winner is replaced.',
  },
  notDrawn: { key: 'rc-not-drawn', slots: [], en: 'You were not drawn this time.' },
  nowWinner: {
    key: 'rc-now-winner',
    slots: ['position', 'replaced', 'sequence', 'reason'],
    en: 'You are now winner #{position}, replacing {replaced} (amendment {sequence}: {reason}).',
  },
  replaced: {
    key: 'rc-replaced',
    slots: [],
    en: 'You were drawn as a winner, and were later replaced by a reserve.',
  },
  everyPassed: {
    key: 'rc-every-passed',
    slots: ['round'],
    en: 'Every check passed in your browser: the draw was re-run here from the seal and drand round {round}.',
  },
  noneFailed: {
    key: 'rc-none-failed',
    slots: ['round'],
    en: 'No check failed in your browser: the draw was re-run here from the seal and drand round {round}.',
  },
  failed: {
    key: 'rc-failed',
    slots: ['failed', 'total', 'names'],
    en: '{failed} of {total} checks failed ({names}): do not trust this result.',
  },
  warning: { key: 'rc-warning', slots: [], en: 'Warning' },
  checking: { key: 'rc-checking', slots: [], en: 'Checking your entry…' },
  couldNot: { key: 'rc-could-not', slots: ['error'], en: 'Could not check: {error}' },
  openLink: { key: 'rc-open-link', slots: [], en: 'Open your receipt link, or paste it or its code below.' },
  incomplete: {
    key: 'rc-incomplete',
    slots: ['problem'],
    en: 'This receipt link is not complete: {problem}.',
  },
  notACode: { key: 'rc-not-a-code', slots: ['problem'], en: 'That is not a receipt code: {problem}.' },
  treeYou: { key: 'rc-tree-you', slots: [], en: 'your entry (leaf)' },
  treeSibling: { key: 'rc-tree-sibling', slots: [], en: 'from the proof' },
  treeComputed: { key: 'rc-tree-computed', slots: [], en: 'computed' },
  treeRoot: { key: 'rc-tree-root', slots: [], en: 'entrants root (signed in the seal)' },
} as const satisfies Record<string, { key: string; slots: readonly string[]; en: string }>;

export type ReceiptTextName = keyof typeof RECEIPT_TEXT_KEYS;
