/** The transparency log's tables and, beside them, those of a deployment that serves as a witness. */

export interface LogKeyTable {
  id: number;
  seed: string;
  created_at: number;
}

/** A witness's timestamped cosignature of the log's checkpoint at `size` (a note signature line). */
export interface LogCosignaturesTable {
  size: number;
  /** The witness's key name. */
  witness: string;
  line: string;
  /** Epoch milliseconds of the cosignature's own timestamp. */
  cosigned_at: number;
}

/** The newest log size each witness has cosigned or said it holds. */
export interface LogWitnessSizesTable {
  witness: string;
  size: number;
}

export interface WitnessKeyTable {
  id: number;
  seed: string;
  created_at: number;
}

/** As a witness: the newest checkpoint of each log it witnesses. */
export interface WitnessLogsTable {
  origin: string;
  size: number;
  root: Uint8Array;
  checkpoint: string;
  updated_at: number;
}

export interface LogEntriesTable {
  idx: number;
  /** `seal`, `certificate` or `key` (CONTRACT §8). */
  kind: string;
  /** The seal id, certificate id or key id the entry is about. */
  ref_id: string;
  /** The RFC 8785 bytes of the signed object, exactly as published. */
  leaf_data: Uint8Array;
  leaf_hash: Uint8Array;
  created_at: number;
}

/** Every complete subtree of the log's tree: 2^level leaves from idx × 2^level; level 0 is a leaf. */
export interface LogNodesTable {
  level: number;
  idx: number;
  hash: Uint8Array;
}

/** One row (id 1): the log's size and root, taken first by every append. */
export interface LogHeadTable {
  id: number;
  size: number;
  root: Uint8Array;
}
