import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { seedOf } from '../../src/log/log-key.ts';
import { cosign, cosignerVerifierKey } from '../../src/proof/cosignature.ts';
import { leafDataOf } from '../../src/proof/log-entry.ts';
import { checkLogEvidence, type LogEvidence } from '../../src/proof/log-evidence.ts';
import { formatNote, parseNote } from '../../src/proof/note.ts';
import { SEAL_OPERATOR_ONLY, sealTimeCheck } from '../../src/proof/outside-evidence.ts';
import { createSigningKey } from '../../src/signing/certificate-crypto.ts';
import { logWorld, SCENE_ROUND_AT, scene, sealBy } from './log-world.ts';

const ROUND_SECONDS = Date.parse(SCENE_ROUND_AT) / 1000;

const byId = (checks: { id: string; ok: boolean; detail: string }[]) =>
  Object.fromEntries(checks.map((c) => [c.id, c]));

/** The scene's log with two witnesses, and the checkpoint just after the seal cosigned by both at `time`. */
function witnessed() {
  const s = scene();
  const wit = createSigningKey();
  const other = createSigningKey();
  const witKey = cosignerVerifierKey('w.test/witness', wit.publicKeyRaw);
  const otherKey = cosignerVerifierKey('o.test/witness', other.publicKeyRaw);
  const at = s.sealIndex + 1;
  const cosigned = (time: number, size = at) => {
    const parsed = parseNote(s.w.checkpoint(size));
    return formatNote(parsed.text, [
      ...parsed.signatures,
      cosign(parsed.text, 'w.test/witness', seedOf(wit), time),
      cosign(parsed.text, 'o.test/witness', seedOf(other), time),
    ]);
  };
  const good = {
    checkpoint: cosigned(ROUND_SECONDS - 5),
    index: s.sealIndex,
    proof: s.w.inclusion(s.sealIndex, at),
  };
  const judge = (
    sealWitness: unknown,
    trusted: string[],
    consistency: readonly string[] | undefined = s.w.consistency(at),
    over: Partial<LogEvidence> = {},
  ) => {
    const verdict = checkLogEvidence(
      s.evidence({ witness: { seal: s.seal, sealWitness, trusted, consistency }, ...over }),
    );
    return { ...verdict, byId: byId(verdict.checks) };
  };
  return { s, at, witKey, otherKey, cosigned, good, judge };
}

describe('the seal witnesses as evidence about the log a reader sees', () => {
  test('counted under trusted keys only, once the fresh checkpoint extends theirs, with a time before the round', () => {
    const { s, at, witKey, otherKey, good, judge } = witnessed();
    const one = judge(good, [witKey]);
    assert.deepEqual(one.byId['witnessed-checkpoint'], {
      id: 'witnessed-checkpoint',
      label: 'Witnessed checkpoint',
      ok: true,
      detail: `the seal is entry ${s.sealIndex} of the checkpoint at size ${at}, which the log at size ${s.w.size} extends; cosigned by 1 witness you trust, 1 of them before the round`,
    });
    assert.deepEqual(one.byId['seal-witness'], {
      id: 'seal-witness',
      label: 'Seal witnesses',
      ok: true,
      detail: 'seal witnessed before the round by 1 witness',
    });
    assert.deepEqual(one.outside, [
      { kind: 'witness', by: 'w.test/witness', at: (ROUND_SECONDS - 5) * 1000 },
    ]);
    assert.equal(one.advance, s.w.checkpoint());
    assert.equal(
      judge(good, [witKey, otherKey]).byId['seal-witness'].detail,
      'seal witnessed before the round by 2 witnesses',
    );

    // Nobody trusted: the evidence holds together, but nothing outside dates the seal.
    const untrusted = judge(good, []);
    assert.match(
      untrusted.byId['witnessed-checkpoint'].detail,
      /; it carries 2 cosignatures, none by a witness key you gave$/,
    );
    assert.equal(untrusted.byId['seal-witness'], undefined);
    assert.deepEqual(untrusted.outside, []);
    const none = judge(undefined, [witKey]);
    assert.deepEqual(
      none.checks.filter((c) => c.id.includes('witness')),
      [],
    );

    // Cosigned at the round's time: a real cosignature, not evidence of a seal before the round.
    const { good: g2, judge: j2, witKey: k2, cosigned: c2 } = witnessed();
    const atRound = j2({ ...g2, checkpoint: c2(ROUND_SECONDS) }, [k2]);
    assert.match(
      atRound.byId['witnessed-checkpoint'].detail,
      /cosigned by 1 witness you trust, 0 of them before the round$/,
    );
    assert.equal(atRound.byId['seal-witness'], undefined);
    assert.equal(
      sealTimeCheck(atRound.outside, { beacon: { round_at: SCENE_ROUND_AT } }).warning,
      SEAL_OPERATOR_ONLY,
    );
  });

  test('each way the witnessed checkpoint can fail to speak of this seal in this log is named', () => {
    const { s, at, witKey, good, judge } = witnessed();
    assert.match(
      judge(undefined, ['not a key']).byId['seal-witness'].detail,
      /^the witness key "not a key": /,
    );
    assert.match(
      judge(good, [s.w.vkey]).byId['seal-witness'].detail,
      /it is not a witness \(cosigner\) key$/,
    );
    const failed = (sealWitness: unknown, consistency?: readonly string[], over?: Partial<LogEvidence>) => {
      const c = judge(sealWitness, [witKey], consistency, over).byId['witnessed-checkpoint'];
      assert.equal(c.ok, false);
      return c.detail;
    };
    assert.equal(
      failed({ ...good, index: s.certIndex }),
      `the witnessed seal is entry ${s.certIndex}, not ${s.sealIndex}`,
    );
    assert.match(failed({ ...good, proof: s.w.inclusion(0, at) }), /does not include this seal/);
    const parsed = parseNote(good.checkpoint);
    const unsigned = formatNote(parsed.text, parsed.signatures.slice(1));
    assert.match(failed({ ...good, checkpoint: unsigned }), /^the witnessed checkpoint: /);
    assert.equal(failed('a string'), 'seal_witness is not an object');
    const rewritten = `the log at size ${s.w.size} is not an extension of the checkpoint its witnesses cosigned at size ${at}: it was rewritten after they saw it`;
    assert.equal(failed(good, []), rewritten);
    assert.equal(failed(good, s.w.consistency(at - 1)), rewritten);
    // The log shown to this reader is smaller than the one the witnesses saw.
    const smaller = s.evidence({ checkpoint: s.w.checkpoint(at - 1), objects: [] });
    assert.match(
      failed(good, [], smaller),
      /^the witnessed checkpoint has 2 entries, the log only 1: the log was rolled back/,
    );
    // Witnessed at the fresh size itself: nothing to prove.
    const { good: whole, judge: j2, witKey: k2, s: s2, cosigned } = witnessed();
    const full = {
      ...whole,
      checkpoint: cosigned(ROUND_SECONDS - 5, s2.w.size),
      proof: s2.w.inclusion(s2.sealIndex),
    };
    assert.equal(j2(full, [k2], []).byId['witnessed-checkpoint'].ok, true);
  });

  test('a seal re-made after its round by the log key holder: the witnesses of the first one do not carry over', () => {
    const { s, at, witKey, good } = witnessed();
    // Same id and round, another list, signed again with the service's key.
    const remade = sealBy(s.k, 's_1', SCENE_ROUND_AT, { entrants: { root: 'another list' } });

    // Re-logged by rewriting history: the re-made seal where the first one was, the tree re-signed
    // with the log key. To a first-time reader the fork itself checks; the witnessed checkpoint does not.
    const fork = logWorld(s.w.origin, s.w.logKey);
    for (const [i, leaf] of s.w.leaves.entries())
      fork.leaves.push(i === s.sealIndex ? leafDataOf(remade) : leaf);
    const forked = checkLogEvidence({
      ...s.evidence(),
      checkpoint: fork.checkpoint(),
      objects: [{ what: 'seal', object: remade, index: s.sealIndex, proof: fork.inclusion(s.sealIndex) }],
      keyEntries: { [s.k.kid]: s.keyEntries().map((e) => ({ ...e, proof: fork.inclusion(e.index) })) },
      witness: { seal: remade, sealWitness: good, trusted: [witKey], consistency: fork.consistency(at) },
    });
    const checks = byId(forked.checks);
    for (const id of ['log-checkpoint', 'log-inclusion-seal', 'log-key-seal'])
      assert.equal(checks[id].ok, true, id);
    assert.equal(checks['witnessed-checkpoint'].ok, false);
    assert.match(
      checks['witnessed-checkpoint'].detail,
      /is not an extension of the checkpoint its witnesses cosigned at size 2: it was rewritten/,
    );
    assert.deepEqual(forked.outside, []);
    assert.equal(forked.advance, undefined, 'a fork is never remembered');

    // Re-logged by appending: the log is honest about it, and no witness saw it before the round.
    const appended = s.w.append(remade);
    const relogged = (sealWitness: unknown) =>
      checkLogEvidence({
        ...s.evidence(),
        objects: [{ what: 'seal', object: remade, index: appended, proof: s.w.inclusion(appended) }],
        witness: { seal: remade, sealWitness, trusted: [witKey], consistency: s.w.consistency(at) },
      });
    const kept = byId(relogged(good).checks)['witnessed-checkpoint'];
    assert.equal(kept.detail, `the witnessed seal is entry ${s.sealIndex}, not ${appended}`);
    const bare = relogged(undefined);
    assert.deepEqual(
      bare.checks.filter((c) => c.id.includes('witness')),
      [],
    );
    assert.equal(
      sealTimeCheck(bare.outside, remade).warning,
      SEAL_OPERATOR_ONLY,
      'VALID with a warning, as before',
    );
    assert.deepEqual(sealTimeCheck(bare.outside, remade, 1), {
      id: 'seal-time',
      label: 'Seal time',
      ok: false,
      detail: 'seal time attested by the operator only, and 1 outside attestation is required',
    });
  });
});
