import { createHash, verify, X509Certificate } from 'node:crypto';
import { type Clock, type RandomSource, type SourceBatch, SourceError, systemClock } from '../source.ts';
import { assertTimeout, fetchSourceJson, type HttpSourceOptions, readFields } from './http-json.ts';

export const NIST_BEACON_URL = 'https://beacon.nist.gov/beacon/2.0';
/** CONTRACT §4: a pulse serves operations for at most two periods after its timeStamp. */
export const NIST_FRESH_PERIODS = 2;

export interface NistSourceOptions extends HttpSourceOptions {
  /** Beacon base; the client GETs `<url>/pulse/last`. */
  url?: string;
  clock?: Clock;
  /**
   * PEM of the beacon's signing certificate (`<url>/certificate/<certificateId>`). When given, a
   * pulse must name this certificate and carry a valid RSA signature by it; without it only the
   * hash chain of the pulse itself is checked (TLS vouches for the origin).
   */
  certificate?: string;
}

/** The fields of a pulse that enter its hash, decoded. */
export interface NistPulse {
  uri: string;
  version: string;
  cipherSuite: number;
  period: number;
  certificateId: Uint8Array;
  chainIndex: number;
  pulseIndex: number;
  timeStamp: string;
  localRandomValue: Uint8Array;
  external: { sourceId: Uint8Array; statusCode: number; value: Uint8Array };
  listValues: Uint8Array[];
  precommitmentValue: Uint8Array;
  statusCode: number;
  signatureValue: Uint8Array;
  outputValue: Uint8Array;
}

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?Z$/;
const UINT32_MAX = 0xffff_ffff;

export function createNistSource(options: NistSourceOptions): RandomSource {
  const { timeoutMs, clock = systemClock } = options;
  assertTimeout(timeoutMs);
  const url = `${(options.url ?? NIST_BEACON_URL).replace(/\/+$/, '')}/pulse/last`;
  const signer = options.certificate === undefined ? undefined : loadCertificate(options.certificate);

  return {
    name: 'nist',
    kind: 'beacon',
    async fetch(signal?: AbortSignal): Promise<SourceBatch> {
      const body = await fetchSourceJson(options, { source: 'nist', url, signal });
      const pulse = parseNistPulse(body);
      const serialization = serializeNistPulse(pulse);
      checkNistIntegrity(pulse, serialization);
      if (signer) checkNistSignature(pulse, serialization, signer);
      const producedAt = new Date(pulse.timeStamp);
      const now = clock.now();
      const age = now.getTime() - producedAt.getTime();
      if (age > NIST_FRESH_PERIODS * pulse.period) {
        throw new SourceError('nist', `stale pulse ${pulse.uri}: ${pulse.timeStamp} is ${age} ms old`);
      }
      // A pulse more than a period ahead means our clock and NIST's disagree; its freshness window
      // would then be meaningless.
      if (-age > pulse.period) {
        throw new SourceError('nist', `pulse ${pulse.uri} is dated ${pulse.timeStamp}, in the future`);
      }
      return {
        source: 'nist',
        kind: 'beacon',
        bytes: pulse.outputValue,
        reference: pulse.uri,
        producedAt,
        fetchedAt: now,
        expiresAt: new Date(producedAt.getTime() + NIST_FRESH_PERIODS * pulse.period),
      };
    },
  };
}

/** Reads a `{"pulse": {...}}` body, validating every field that enters the hash or that we use. */
export function parseNistPulse(body: unknown): NistPulse {
  const p = readFields('nist', body, 'body').object('pulse');
  const external = p.object('external');
  const cipherSuite = p.int('cipherSuite', 0, UINT32_MAX);
  // Suite 0 (SHA-512, RSA PKCS#1 v1.5) is the only one whose hash and signature we know how to check.
  if (cipherSuite !== 0) throw new SourceError('nist', `unsupported cipherSuite ${cipherSuite}`);
  const timeStamp = p.string('timeStamp');
  if (!ISO_UTC.test(timeStamp) || Number.isNaN(Date.parse(timeStamp))) {
    throw new SourceError('nist', `body.pulse.timeStamp ${JSON.stringify(timeStamp)} is not an ISO UTC time`);
  }
  return {
    uri: p.string('uri'),
    version: p.string('version'),
    cipherSuite,
    period: p.int('period', 1, UINT32_MAX),
    certificateId: p.hex('certificateId'),
    chainIndex: p.int('chainIndex'),
    pulseIndex: p.int('pulseIndex'),
    timeStamp,
    localRandomValue: p.hex('localRandomValue'),
    external: {
      sourceId: external.hex('sourceId'),
      statusCode: external.int('statusCode', 0, UINT32_MAX),
      value: external.hex('value'),
    },
    listValues: p
      .array('listValues')
      .map((item, i) => readFields('nist', item, `body.pulse.listValues[${i}]`).hex('value')),
    precommitmentValue: p.hex('precommitmentValue'),
    statusCode: p.int('statusCode', 0, UINT32_MAX),
    signatureValue: p.hex('signatureValue'),
    outputValue: p.hex('outputValue', 64),
  };
}

/**
 * The byte string NIST hashes and signs (Beacon 2.0, UPSTREAMS.md): strings and byte fields are
 * length-prefixed (4-byte big-endian), small ints are 4 bytes, chain and pulse indexes 8 bytes.
 */
export function serializeNistPulse(pulse: Omit<NistPulse, 'signatureValue' | 'outputValue'>): Uint8Array {
  const parts: Uint8Array[] = [];
  const u32 = (n: number) => {
    const b = Buffer.alloc(4);
    b.writeUInt32BE(n);
    parts.push(b);
  };
  const u64 = (n: number) => {
    const b = Buffer.alloc(8);
    b.writeBigUInt64BE(BigInt(n));
    parts.push(b);
  };
  const bytes = (b: Uint8Array) => {
    u32(b.length);
    parts.push(b);
  };
  const text = (s: string) => bytes(Buffer.from(s, 'utf8'));

  text(pulse.uri);
  text(pulse.version);
  u32(pulse.cipherSuite);
  u32(pulse.period);
  bytes(pulse.certificateId);
  u64(pulse.chainIndex);
  u64(pulse.pulseIndex);
  text(pulse.timeStamp);
  bytes(pulse.localRandomValue);
  bytes(pulse.external.sourceId);
  u32(pulse.external.statusCode);
  bytes(pulse.external.value);
  for (const value of pulse.listValues) bytes(value);
  bytes(pulse.precommitmentValue);
  u32(pulse.statusCode);
  return Buffer.concat(parts);
}

export function nistOutputValue(serialization: Uint8Array, signatureValue: Uint8Array): Uint8Array {
  return new Uint8Array(createHash('sha512').update(serialization).update(signatureValue).digest());
}

export function checkNistIntegrity(pulse: NistPulse, serialization = serializeNistPulse(pulse)): void {
  const expected = nistOutputValue(serialization, pulse.signatureValue);
  if (!Buffer.from(expected).equals(pulse.outputValue)) {
    throw new SourceError('nist', `pulse ${pulse.uri} fails its integrity check (outputValue ≠ SHA-512)`);
  }
}

interface Signer {
  cert: X509Certificate;
  id: Buffer;
}

function loadCertificate(pem: string): Signer {
  const cert = new X509Certificate(pem);
  // NIST names its certificate by the SHA-512 of the DER bytes, not of the PEM text.
  return { cert, id: createHash('sha512').update(cert.raw).digest() };
}

function checkNistSignature(pulse: NistPulse, serialization: Uint8Array, { cert, id }: Signer): void {
  if (!id.equals(pulse.certificateId)) {
    throw new SourceError('nist', `pulse ${pulse.uri} names another certificate than the one configured`);
  }
  const time = Date.parse(pulse.timeStamp);
  if (time < cert.validFromDate.getTime() || time > cert.validToDate.getTime()) {
    throw new SourceError('nist', `pulse ${pulse.uri} is dated outside its certificate's validity`);
  }
  // RSA keys verify with PKCS#1 v1.5 padding by default, which is what cipherSuite 0 uses.
  if (!verify('sha512', serialization, cert.publicKey, pulse.signatureValue)) {
    throw new SourceError('nist', `pulse ${pulse.uri} has an invalid RSA signature`);
  }
}
