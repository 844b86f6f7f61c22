// The shape of test/fixtures/draw-v2-vectors.json, as docs/draw-v2-vectors.py writes it.

export interface SignedJson {
  hash: string;
  signature: { alg: string; kid: string; value: string };
  [member: string]: unknown;
}

export interface Member {
  position: number;
  index: number;
  telegram_id: number;
  username?: string | null;
  salt: string;
  leaf_hash: string;
  proof: string[];
}

export interface SealBodyJson {
  type: string;
  seal_id: string;
  giveaway: {
    public_id: string;
    title: string;
    winners_count: number;
    reserve_count: number;
    owner: string;
    created_at: string;
    /** Absent from seals made before terms were committed (CONTRACT §14). */
    terms_sha256?: string | null;
  };
  entrants: { count: number; root: string };
  sealed_at: string;
  beacon: {
    network: string;
    chain_hash: string;
    after_round: number;
    after_randomness: string;
    round: number;
    round_at: string;
  };
}

export interface Beacon {
  round: number;
  randomness: string;
  signature: string;
}

interface Expected {
  n: number;
  k: number;
  seed: string;
  winners: Member[];
  reserves: Member[];
}

export interface Fixture {
  algorithm: string;
  merkle: {
    empty_root: string;
    rfc6962: {
      leaf_data: string[];
      roots: string[];
      proofs: { index: number; size: number; proof: string[] }[];
    };
    leaf_hashes: string[];
    trees: { size: number; root: string; proofs: string[][] }[];
    large_trees: {
      size: number;
      root: string;
      chunk_roots: string[];
      proofs: { index: number; proof: string[] }[];
      all_proofs_sha256: string;
    }[];
    verify_cases: {
      name: string;
      leaf_hash: string;
      index: number;
      size: number;
      root: string;
      proof: string[];
      valid: boolean;
    }[];
  };
  canonical_json: { name: string; value: unknown; canonical?: string; sha256?: string; error?: boolean }[];
  entrants: {
    name: string;
    entrants: { telegram_id: number; salt: string }[];
    expected: {
      leaves: { telegram_id: number; leaf_data: string; leaf_hash: string }[];
      canonical_order: number[];
      count: number;
      root: string;
      proofs: string[][];
    };
  }[];
  rounds: {
    chain: { genesis_time: number; period: number; hash: string };
    round_of: { time: string; time_ms: number; round: number }[];
    round_time: { round: number; time: string; time_ms: number }[];
    committed_round: {
      after_round: number;
      sealed_at: string;
      sealed_at_ms: number;
      delay_rounds: number;
      round: number;
    }[];
    seal_checks: { name: string; sealed_at: string; beacon: SealBodyJson['beacon']; valid: boolean }[];
  };
  draws: {
    name: string;
    /** The terms whose SHA-256 the seal commits to (null: none); absent for seals made before. */
    terms?: string | null;
    entrants?: { telegram_id: number; salt: string }[];
    entrants_formula?: { count: number };
    seal: SealBodyJson;
    seal_canonical: string;
    seal_canonical_hex: string;
    seal_hash: string;
    beacon_randomness: string;
    expected: Expected;
  }[];
  terms: {
    terms_sha256: { name: string; terms: string; utf8_hex: string; sha256: string }[];
    checks: {
      seal: string;
      giveaway: SealBodyJson['giveaway'];
      file: string;
      file_hex: string;
      valid: boolean;
      verdict: 'match' | 'absent' | 'none' | 'malformed' | 'mismatch';
    }[];
  };
  quicknet_example: {
    chain: Record<string, unknown>;
    beacon: Beacon;
    after_beacon: Beacon;
    delay_rounds: number;
    keys: { keys: { kty: string; crv: string; x: string; kid: string }[] };
    entrants: { telegram_id: number; username: string | null; salt: string; joined_at: string }[];
    seal: SealBodyJson & SignedJson;
    seal_canonical: string;
    seal_canonical_hex: string;
    seed_input_hex: string;
    expected: Expected & { canonical_order: number[] };
    stream: { block0: string; draws: { i: number; m: number; word: string; j: number; index: number }[] };
    certificate: SignedJson & {
      algorithm: string;
      seal: unknown;
      beacon: Beacon & { network: string; chain_hash: string };
      seed: string;
      winners: Member[];
      reserves: Member[];
    };
    certificate_canonical: string;
    tickets: (SignedJson & { leaf_hash: string })[];
    receipts: {
      receipt: {
        telegram_id: number;
        salt: string;
        leaf_hash: string;
        ticket: SignedJson & { leaf_hash: string };
        index: number;
        count: number;
        root: string;
        proof: string[];
        seal_id: string;
        seal_hash: string;
      };
      outcome: { won: boolean; position?: number; reserve?: boolean };
    }[];
    remade_seal: { description: string; seal: SealBodyJson & SignedJson; error: string };
  };
}
