// The signed objects of tyche-draw-v2 (CONTRACT.md §7). Field names and nesting are normative:
// an independent verifier re-hashes exactly these members, so nothing may be added inside them.
// Hex is lower-case; times are RFC 3339 UTC with milliseconds.

export const SEAL_TYPE = 'tyche-seal-v2';
export const TICKET_TYPE = 'tyche-ticket-v2';
export const ALGORITHM_V2 = 'tyche-draw-v2';

/** `{"alg": "Ed25519", "kid", "value"}`, value base64url, over the RFC 8785 bytes of the body. */
export interface ObjectSignature {
  alg: 'Ed25519';
  kid: string;
  value: string;
}

/** What sealing adds to a body: SHA-256 hex of its canonical JSON, and the signature over it. */
export interface SignedMembers {
  hash: string;
  signature: ObjectSignature;
}

export interface SealBody {
  type: typeof SEAL_TYPE;
  seal_id: string;
  giveaway: {
    public_id: string;
    title: string;
    winners_count: number;
    reserve_count: number;
    /** A stable random pseudonym of the owning account, never its Telegram id. */
    owner: string;
    created_at: string;
    /**
     * SHA-256 hex of the terms' UTF-8 bytes, or null when the giveaway has none (CONTRACT §14).
     * Absent from seals made before terms were committed: absent is not null (proof/terms.ts).
     */
    terms_sha256?: string | null;
  };
  entrants: { count: number; root: string };
  sealed_at: string;
  beacon: {
    network: 'drand';
    chain_hash: string;
    after_round: number;
    after_randomness: string;
    round: number;
    round_at: string;
  };
}

export type Seal = SealBody & SignedMembers;

export interface EntrantWinner {
  /** 1-based; positions after min(winners_count, n) are reserves. */
  position: number;
  /** 0-based index in canonical (ascending leaf_hash) order. */
  index: number;
  telegram_id: number;
  username: string | null;
  salt: string;
  leaf_hash: string;
  /** RFC 9162 audit path, leaf to root, hex. */
  proof: string[];
}

export interface CertificateV2Body {
  certificate_id: string;
  algorithm: typeof ALGORITHM_V2;
  seal: Seal;
  beacon: { network: 'drand'; chain_hash: string; round: number; randomness: string; signature: string };
  seed: string;
  winners: EntrantWinner[];
  /** The reserve_count positions after the winners, from the same stream (empty when none). */
  reserves: EntrantWinner[];
  drawn_at: string;
}

export type CertificateV2 = CertificateV2Body & SignedMembers;

export interface TicketBody {
  type: typeof TICKET_TYPE;
  /** The giveaway's public_id. */
  giveaway: string;
  leaf_hash: string;
  joined_at: string;
}

export type Ticket = TicketBody & SignedMembers;

/** An entrant's place in the sealed list. */
export interface InclusionProof {
  index: number;
  count: number;
  root: string;
  proof: string[];
}

/** The answer of /g/{public_id}/proof/{leaf_hash}: the place, and the seal it is in, by id and hash. */
export interface SealedPlace extends InclusionProof {
  seal_id: string;
  seal_hash: string;
}

/** What an entrant keeps (CONTRACT §7.8); the sealed part is present once the list is sealed. */
export interface Receipt {
  giveaway: string;
  telegram_id: number;
  salt: string;
  leaf_hash: string;
  receipt_url: string;
  ticket: Ticket;
  index?: number;
  count?: number;
  root?: string;
  proof?: string[];
  seal_id?: string;
  /** The `hash` of the seal the receipt was issued under; absent from receipts saved before it was added. */
  seal_hash?: string;
}

/** A drand chain of scheme bls-unchained-g1-rfc9380, as its /info JSON names it. */
export interface DrandChainInfo {
  public_key: string;
  period: number;
  genesis_time: number;
  hash: string;
  schemeID: 'bls-unchained-g1-rfc9380';
}
