// Shared by the tyche-draw-v2 vector tests: the fixture, an independent SHA-256 and Ed25519 (node:crypto),
// and the sealed list built the way §7.1–7.2 describe it from the modules under test.
import assert from 'node:assert/strict';
import { createHash, createPublicKey, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { canonicalJsonBytes } from '../../src/proof/canonical-json.ts';
import { entrantLeafHash } from '../../src/proof/entrant-leaf.ts';
import { fromHex, toHex } from '../../src/proof/hex.ts';
import { CHUNK_LEAVES, inclusionProof, treeSummary, verifyInclusion } from '../../src/proof/merkle.ts';
import type { Fixture, Member, SignedJson } from './draw-v2-vectors.types.ts';

// Every expected value comes from docs/draw-v2-vectors.py (the Python reference of §7), which
// checks itself against the RFC 6962, RFC 8785 and RFC 8032 published examples before writing.
export const fixture = JSON.parse(
  readFileSync(new URL('../fixtures/draw-v2-vectors.json', import.meta.url), 'utf8'),
) as Fixture;

export const sha256 = (data: Uint8Array): Uint8Array => createHash('sha256').update(data).digest();
export const sha256Hex = (data: Uint8Array | string): string =>
  createHash('sha256').update(data).digest('hex');
export const hexes = (nodes: readonly Uint8Array[]): string[] => nodes.map(toHex);
export const unhexes = (nodes: readonly string[]): Uint8Array[] => nodes.map(fromHex);

export function pack(hashes: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(hashes.length * 32);
  for (let i = 0; i < hashes.length; i++) out.set(hashes[i], i * 32);
  return out;
}

export function uint64be(i: number): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, BigInt(i));
  return out;
}

export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

/** The entrants in canonical order (ascending leaf_hash), with their tree. */
export function sealedList(entrants: readonly { telegram_id: number; salt: string }[]) {
  const rows = entrants
    .map((e) => ({ ...e, leaf: entrantLeafHash(fromHex(e.salt), e.telegram_id, sha256) }))
    .sort((a, b) => compareBytes(a.leaf, b.leaf));
  const packed = pack(rows.map((r) => r.leaf));
  const summary = treeSummary(packed, rows.length, sha256);
  const proofOf = (index: number): Uint8Array[] => {
    const first = Math.floor(index / CHUNK_LEAVES) * CHUNK_LEAVES;
    const last = Math.min(first + CHUNK_LEAVES, rows.length);
    return inclusionProof(
      index,
      rows.length,
      packed.subarray(first * 32, last * 32),
      summary.chunkRoots,
      sha256,
    );
  };
  return { rows, packed, root: summary.root, proofOf };
}

export function formulaEntrants(count: number): { telegram_id: number; salt: string }[] {
  const out = [];
  for (let i = 1; i <= count; i++) {
    const telegramId = Number((BigInt(i) * 2654435761n) % 2n ** 32n);
    out.push({ telegram_id: telegramId, salt: sha256Hex(`tyche-draw-v2 salt ${i}`).slice(0, 32) });
  }
  return out;
}

export function bodyOf(signed: SignedJson): Record<string, unknown> {
  const { hash: _hash, signature: _signature, ...body } = signed;
  return body;
}

/** An independent Ed25519 check (node:crypto) of a fixture object against the fixture's key. */
export function assertSigned(signed: SignedJson, what: string): void {
  const bytes = canonicalJsonBytes(bodyOf(signed));
  assert.equal(sha256Hex(bytes), signed.hash, `${what}: hash`);
  const jwk = fixture.quicknet_example.keys.keys.find((k) => k.kid === signed.signature.kid);
  assert.ok(jwk, `${what}: key ${signed.signature.kid} is published`);
  const key = createPublicKey({ key: { kty: jwk.kty, crv: jwk.crv, x: jwk.x }, format: 'jwk' });
  assert.equal(signed.signature.alg, 'Ed25519');
  assert.ok(verify(null, bytes, key, Buffer.from(signed.signature.value, 'base64url')), `${what}: signature`);
}

export function unpack(packed: Uint8Array): Uint8Array[] {
  const out = [];
  for (let i = 0; i < packed.length; i += 32) out.push(packed.slice(i, i + 32));
  return out;
}

export function assertMembers(members: readonly Member[], list: ReturnType<typeof sealedList>): void {
  members.forEach((m, i) => {
    assert.equal(m.position, i + 1);
    const row = list.rows[m.index];
    assert.equal(m.telegram_id, row.telegram_id);
    assert.equal(m.salt, row.salt);
    assert.equal(m.leaf_hash, toHex(row.leaf));
    assert.deepEqual(hexes(list.proofOf(m.index)), m.proof);
    assert.ok(verifyInclusion(row.leaf, m.index, list.rows.length, unhexes(m.proof), list.root, sha256));
  });
}
