import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fromHex, toHex } from '../../src/proof/hex.ts';
import { checkLogEvidence, type LogEvidence } from '../../src/proof/log-evidence.ts';
import { logWorld, sha256 } from './log-world.ts';

// A small seeded generator, so a failing case can be replayed from the seed in the message.
function random(seed: number) {
  let s = seed >>> 0;
  return (n: number) => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) % n;
  };
}

/** One byte of one hash of a proof changed. */
function flipped(proof: readonly string[], pick: (n: number) => number): string[] {
  const out = [...proof];
  const which = pick(out.length);
  const bytes = fromHex(out[which]);
  bytes[pick(32)] ^= 1 << pick(8);
  out[which] = toHex(bytes);
  return out;
}

describe('log evidence over random logs', () => {
  test('every inclusion and consistency proof verifies, and any changed byte fails', () => {
    const w = logWorld();
    const objects: Record<string, unknown>[] = [];
    for (let seed = 1; seed <= 60; seed++) {
      const pick = random(seed);
      // Grow the same log a few entries at a time, so sizes cover 1 … 150 or so.
      for (let k = pick(5); k >= 0; k--) {
        const obj = { entry: objects.length, seed };
        objects.push(obj);
        w.append(obj);
      }
      const size = w.size;
      const index = pick(size);
      const first = 1 + pick(size);
      const base: LogEvidence = {
        logKey: w.vkey,
        keySource: { code: 'given', given: '--log-key' },
        checkpoint: w.checkpoint(),
        previous: { checkpoint: w.checkpoint(first), proof: w.consistency(first) },
        objects: [{ what: 'seal', object: objects[index], index, proof: w.inclusion(index) }],
        keyEntries: {},
        sha256,
      };
      const ids = (e: LogEvidence) => Object.fromEntries(checkLogEvidence(e).checks.map((c) => [c.id, c.ok]));
      const ok = ids(base);
      const at = `seed ${seed}: size ${size}, index ${index}, first ${first}`;
      assert.equal(ok['log-consistency'], true, at);
      assert.equal(ok['log-inclusion-seal'], true, at);

      const inclusion = base.objects[0].proof ?? [];
      if (inclusion.length > 0) {
        const bad = ids({ ...base, objects: [{ ...base.objects[0], proof: flipped(inclusion, pick) }] });
        assert.equal(bad['log-inclusion-seal'], false, `${at}: flipped inclusion`);
      }
      const consistency = base.previous?.proof ?? [];
      if (consistency.length > 0) {
        const previous = { checkpoint: w.checkpoint(first), proof: flipped(consistency, pick) };
        assert.equal(ids({ ...base, previous })['log-consistency'], false, `${at}: flipped consistency`);
      }
      // Another object at the same index: not the leaf there.
      const changed = { ...objects[index], entry: -1 };
      const other = ids({ ...base, objects: [{ ...base.objects[0], object: changed }] });
      assert.equal(other['log-inclusion-seal'], false, `${at}: changed object`);
    }
  });
});
