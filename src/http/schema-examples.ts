/**
 * One giveaway's life as the API shows it — created, sealed, drawn — plus the other answers,
 * taken from a real run so the reference shows what a client will see. Each example is
 * checked against its schema by the OpenAPI tests, so they cannot drift from the code.
 * `EXAMPLE_BASE_URL` is replaced by the server's PUBLIC_BASE_URL in the published document.
 */

export const EXAMPLE_BASE_URL = 'https://tyche.example';

const PUBLIC_ID = 'mqkhDFKrFbRc';
const CERTIFICATE_ID = 'c_PfQUksIGPDVDWslX';
const CREATED_AT = '2026-05-01T08:17:14.063Z';
const SEALED_AT = '2026-05-01T09:00:00.000Z';
const DRAWN_AT = '2026-05-01T09:00:30.001Z';
const KID = '90c7d303d762bff4';
const ROOT = 'fbb1a4e5a5b0aa1cb1a2ee71c902e9d108f840324b905e774011fdc5d04596f9';
/** Each entrant's salt and the leaf hash it gives, as every entrant-bearing answer shows them. */
const BOB_LEAF = {
  salt: 'c000c53e042a55e42fa611b99055fb82',
  leaf_hash: '55d697c17cfd4a736e9060c44fc265cb553e8aa678c27010b127cb2e5e919e68',
} as const;
const ALICE_LEAF = {
  salt: '225e3c653717efab9c34d0ec3f7f3923',
  leaf_hash: 'f8c9851e96b9224c0ad6e9d7e328c88b0a80f7067a4a0092b31a2975736acd7a',
} as const;
const CHAIN_HASH = '52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971';

export const SIGNATURE_EXAMPLE = {
  alg: 'Ed25519',
  kid: KID,
  value: '7TyePqRw_uKmF-Qn1xs0n-kOAHTFXjWCOEr9FfhVPOAOjeb9QlRIxuh8trxYyDSfN2rfj4d-l8dxJhonW0NEAA',
} as const;

export const SEAL_EXAMPLE = {
  type: 'tyche-seal-v2',
  seal_id: 's_pNWDlFQdlnBbuezI',
  giveaway: {
    public_id: PUBLIC_ID,
    title: 'Spring giveaway',
    winners_count: 1,
    reserve_count: 1,
    owner: 'o_z5GCf12zNRsg6jSm',
    created_at: CREATED_AT,
  },
  entrants: { count: 2, root: ROOT },
  sealed_at: SEALED_AT,
  beacon: {
    network: 'drand',
    chain_hash: CHAIN_HASH,
    after_round: 1201,
    after_randomness: 'c1247c4e5a3a2bda50e32f469033045ebc3dac436474e5cb0300a292cfdf831e',
    round: 1211,
    round_at: '2026-05-01T09:00:30.000Z',
  },
  hash: '936168374be9f481cbadfa3fba01d568b46df0d1ca5a08a4db018a03c70b1019',
  signature: SIGNATURE_EXAMPLE,
} as const;

const BOB = { username: 'bob', telegram_id: 987654321 };
const ALICE = { username: 'alice', telegram_id: 123456789 };

export const GIVEAWAY_SUMMARY_EXAMPLE = {
  public_id: PUBLIC_ID,
  title: 'Spring giveaway',
  status: 'completed',
  participants_count: 2,
  winners_count: 1,
  description: 'Three pairs of headphones',
  created_at: CREATED_AT,
  drawn_at: DRAWN_AT,
  certificate_id: CERTIFICATE_ID,
} as const;

export const GIVEAWAY_CREATED_EXAMPLE = {
  ...GIVEAWAY_SUMMARY_EXAMPLE,
  status: 'active',
  participants_count: 0,
  drawn_at: null,
  certificate_id: null,
  draw_mode: 'verifiable',
  reserve_count: 1,
  ends_at: '2026-05-01T09:00:00.000Z',
  claim_within: 'P3D',
  public_url: `${EXAMPLE_BASE_URL}/g/${PUBLIC_ID}`,
  terms: null,
  terms_sha256: null,
  join_url: `https://t.me/TycheDrawBot?start=g_${PUBLIC_ID}`,
} as const;

export const GIVEAWAY_SEALING_EXAMPLE = {
  ...GIVEAWAY_CREATED_EXAMPLE,
  status: 'sealing',
  participants_count: 2,
} as const;

export const GIVEAWAY_SEALED_EXAMPLE = {
  ...GIVEAWAY_CREATED_EXAMPLE,
  status: 'sealed',
  participants_count: 2,
  seal: SEAL_EXAMPLE,
  seal_log_index: 1,
  seal_timestamps: [],
} as const;

export const GIVEAWAY_DRAWN_EXAMPLE = {
  ...GIVEAWAY_SEALED_EXAMPLE,
  status: 'completed',
  drawn_at: DRAWN_AT,
  certificate_id: CERTIFICATE_ID,
  verify_url: `${EXAMPLE_BASE_URL}/verify/${CERTIFICATE_ID}`,
  winners: [BOB],
  reserves: [ALICE],
} as const;

export const DRAW_V2_EXAMPLE = {
  winners: [BOB],
  reserves: [ALICE],
  certificate_id: CERTIFICATE_ID,
  verify_url: `${EXAMPLE_BASE_URL}/verify/${CERTIFICATE_ID}`,
  qrng_source: 'drand',
  request_id: 'e7b87b47-116b-80a4-bc8d-505f22f30b4b',
  participants_count: 2,
  seal: SEAL_EXAMPLE,
  drawn_at: DRAWN_AT,
  algorithm: 'tyche-draw-v2',
  log_index: 2,
  seal_log_index: 1,
} as const;

export const DRAW_V1_EXAMPLE = {
  winners: [BOB],
  certificate_id: 'c_Wq3tY8mKp2aBn4Xz',
  verify_url: `${EXAMPLE_BASE_URL}/verify/c_Wq3tY8mKp2aBn4Xz`,
  qrng_source: 'anu',
  request_id: '01a2077b-1079-7752-8eb8-fbb65fa84101',
  participants_count: 2,
  participants_hash: '4c2d1b0f5e7d1f0ad5b8d4a3cf0c3c2b9a7e1d54f3b2a1908f7e6d5c4b3a2910',
  drawn_at: DRAWN_AT,
  algorithm: 'tyche-draw-v1',
  log_index: 3,
} as const;

export const ENTRANTS_EXAMPLE = {
  entrants: [
    {
      telegram_id: 987654321,
      username: 'bob',
      first_name: null,
      joined_at: CREATED_AT,
      ...BOB_LEAF,
      index: 0,
    },
    {
      telegram_id: 123456789,
      username: 'alice',
      first_name: 'Alice',
      joined_at: CREATED_AT,
      ...ALICE_LEAF,
      index: 1,
    },
  ],
  next_cursor: null,
  seal_timestamps: [],
} as const;

export const TICKET_EXAMPLE = {
  type: 'tyche-ticket-v2',
  giveaway: PUBLIC_ID,
  leaf_hash: ALICE_LEAF.leaf_hash,
  joined_at: CREATED_AT,
  hash: '32dc7e3242825face92ec7f8aa028bffa2226d2a10a562d89cbaa13396286f9e',
  signature: {
    ...SIGNATURE_EXAMPLE,
    value: 'ZND8c558CrkxtsGQP_QIPYFN7G73cLnpP_u93tZqS3afu9B79LcjvKpOlUelasQiPDKdjwk6IJJY1DQjtwFnDg',
  },
} as const;

export const INCLUSION_PROOF_EXAMPLE = {
  index: 1,
  count: 2,
  root: ROOT,
  proof: [BOB_LEAF.leaf_hash],
  seal_id: SEAL_EXAMPLE.seal_id,
  seal_hash: SEAL_EXAMPLE.hash,
} as const;

export const RECEIPT_EXAMPLE = {
  giveaway: PUBLIC_ID,
  telegram_id: 123456789,
  ...ALICE_LEAF,
  receipt_url: `${EXAMPLE_BASE_URL}/g/${PUBLIC_ID}/receipt#123456789.${ALICE_LEAF.salt}`,
  ticket: TICKET_EXAMPLE,
  ...INCLUSION_PROOF_EXAMPLE,
} as const;

export const KEY_SET_EXAMPLE = {
  keys: [
    {
      kty: 'OKP',
      crv: 'Ed25519',
      x: 'gI5oBpMwXQWr7LHowAsH6RkPkCwXKUggToCukJTSyIs',
      kid: KID,
      alg: 'EdDSA',
      use: 'sig',
      created_at: CREATED_AT,
      retired_at: null,
      log_indices: [0],
    },
  ],
  log: {
    origin: 'tyche.example/log',
    key: 'tyche.example/log+5580a7a2+AZwQLz3qb1Wt0VFElKYFNIsmhFOkkEGViOucKmTQO7Fl',
    kid: '8e219ee21e82961e',
  },
} as const;

export const CERTIFICATE_V2_EXAMPLE = {
  certificate_id: CERTIFICATE_ID,
  algorithm: 'tyche-draw-v2',
  seal: SEAL_EXAMPLE,
  beacon: {
    network: 'drand',
    chain_hash: CHAIN_HASH,
    round: 1211,
    randomness: 'c098e3c9756a8273331016b9b77366aa829ff4f7e5b42d6d895091858cfb377c',
    signature:
      '8d99bfed0de5a88b097dc46dbe5dcc79de2d6c4bfe9b6f3767eee3175d1051a979dec4ab05f190ef6dbce58b4dda9317',
  },
  seed: '3167b9686527f2d63d9bba7440f5015b495f66f2d2fa31680513bbebb3a783c6',
  winners: [{ position: 1, index: 0, ...BOB, ...BOB_LEAF, proof: [ALICE_LEAF.leaf_hash] }],
  reserves: [{ position: 2, index: 1, ...ALICE, ...ALICE_LEAF, proof: [BOB_LEAF.leaf_hash] }],
  drawn_at: DRAWN_AT,
  hash: 'fb9475b36beb11cb643a00489d433c4f4084a8f81b588b9050251e8733db420d',
  signature: {
    ...SIGNATURE_EXAMPLE,
    value: 'T2-mwMFYR4NGwSZJhyeDNTDbXHqN9gkQc9YNPuvLzEJIjmw3ssrBjj1om-Xl5bi0Nkk1v0_BpDio88Ey7_sPBA',
  },
  log_index: 2,
  seal_log_index: 1,
  seal_timestamps: [],
  certificate_timestamps: [],
} as const;

export const PUBLIC_GIVEAWAY_EXAMPLE = {
  public_id: PUBLIC_ID,
  title: 'Spring giveaway',
  description: 'Three pairs of headphones',
  status: 'completed',
  draw_mode: 'verifiable',
  algorithm: 'tyche-draw-v2',
  entrants_count: 2,
  winners_count: 1,
  reserve_count: 1,
  created_at: CREATED_AT,
  ends_at: '2026-05-01T09:00:00.000Z',
  seal: SEAL_EXAMPLE,
  log_index: 1,
  seal_timestamps: [],
  certificate_id: CERTIFICATE_ID,
  certificate_log_index: 2,
  verify_url: `${EXAMPLE_BASE_URL}/verify/${CERTIFICATE_ID}`,
  receipt_url: `${EXAMPLE_BASE_URL}/g/${PUBLIC_ID}/receipt`,
  drand: { chain_hash: CHAIN_HASH, relay: 'https://api.drand.sh' },
  conditions: [{ channel: '@tyche_news' }],
  excluded: [{ reason: 'left_required_channel', count: 1 }],
  owner: SEAL_EXAMPLE.giveaway.owner,
  terms: null,
  terms_sha256: null,
} as const;

export const ORGANIZER_RECORD_EXAMPLE = {
  owner: SEAL_EXAMPLE.giveaway.owner,
  log_entries: 3,
  last_log_index: 4,
  giveaways_sealed: 1,
  giveaways_drawn: 1,
  median_seconds_round_to_draw: 0.001,
  replacements: {
    total: 1,
    by_reason: { left_channel: 0, unclaimed: 1, ineligible: 0, duplicate_account: 0, other: 0 },
  },
  red_flags: [],
  giveaways: [
    {
      public_id: PUBLIC_ID,
      title: 'Spring giveaway',
      seal_ids: [SEAL_EXAMPLE.seal_id],
      sealed_at: SEALED_AT,
      round: SEAL_EXAMPLE.beacon.round,
      round_at: SEAL_EXAMPLE.beacon.round_at,
      certificate_id: CERTIFICATE_ID,
      drawn_at: DRAWN_AT,
      seconds_round_to_draw: 0.001,
      replacements: 1,
    },
  ],
} as const;

export const CHECKPOINT_EXAMPLE = `tyche.example/log
3
wwEHO1KYhiUXkGf8gj/1cUqOyvt9g7jyNqF8jnJhUL4=

— tyche.example/log VYCnopqhWxYtIi9uEYpOaz82FIBWBZtFNAVQyoEpMEtQkga8SEw1JmTQWBLtusY/6t1HqsWSX44WT51g4X0YnQkzOgE=
`;

export const HASH_LIST_EXAMPLE = [
  '5951b4610b4d686ea23c0ef1bd9abcdc47f09ca372928e73cd94dbb9ff48a1fc',
  'a8e9b7b7d8b8da509d926bc014cfe7e97e816d9eb6d0135f19cf9654ed6c88c3',
];

export const WEBHOOK_EXAMPLE = {
  id: 'wh_3kQ9mZp2VbX7tR4sLm8Nq1Aa',
  url: 'https://shop.example.com/hooks/tyche',
  events: ['giveaway.sealed', 'giveaway.drawn'],
  description: 'Order system',
  created_at: CREATED_AT,
} as const;
