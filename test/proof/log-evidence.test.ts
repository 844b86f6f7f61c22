import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { seedOf } from '../../src/log/log-key.ts';
import { checkLogEvidence } from '../../src/proof/log-evidence.ts';
import { createSigningKey } from '../../src/signing/certificate-crypto.ts';
import { certificateBy, logWorld, scene, sha256 } from './log-world.ts';

const byId = (checks: { id: string; ok: boolean; detail: string }[]) =>
  Object.fromEntries(checks.map((c) => [c.id, c]));

describe('log evidence', () => {
  test('a logged seal and certificate by an announced key pass every check', () => {
    const s = scene();
    const verdict = checkLogEvidence(s.evidence());
    assert.deepEqual(
      verdict.checks.map((c) => [c.id, c.ok]),
      [
        ['log-checkpoint', true],
        ['log-inclusion-seal', true],
        ['log-key-seal', true],
        ['log-inclusion-certificate', true],
        ['log-key-certificate', true],
      ],
    );
    assert.equal(verdict.advance, s.w.checkpoint());
    assert.match(
      verdict.checks[0].detail,
      new RegExp(`^tyche.test/log at size ${s.w.size}, signed by the log key`),
    );
  });

  test('a checkpoint signed by another key, or of another origin, is refused and nothing else is checked', () => {
    const s = scene();
    const forged = s.w.checkpoint(s.w.size, seedOf(createSigningKey()));
    const verdict = checkLogEvidence(s.evidence({ checkpoint: forged }));
    assert.deepEqual(
      verdict.checks.map((c) => [c.id, c.ok]),
      [['log-checkpoint', false]],
    );
    assert.equal(verdict.advance, undefined);
    const stranger = logWorld('elsewhere.test/log');
    const other = checkLogEvidence(s.evidence({ checkpoint: stranger.checkpoint(0) }));
    assert.equal(other.checks[0].ok, false);
  });

  test('the checkpoint seen before: grown consistently passes, shrunk is a rollback, rewritten fails', () => {
    const s = scene();
    const older = s.w.checkpoint(2);
    const grown = checkLogEvidence(
      s.evidence({ previous: { checkpoint: older, proof: s.w.consistency(2) } }),
    );
    assert.equal(byId(grown.checks)['log-consistency'].ok, true);
    assert.equal(byId(grown.checks)['log-consistency'].detail, 'the log only grew since size 2, seen before');
    assert.ok(grown.advance);

    const now = s.w.checkpoint(3);
    const rolled = checkLogEvidence({
      ...s.evidence({ checkpoint: now, previous: { checkpoint: s.w.checkpoint(), proof: [] } }),
      objects: [],
    });
    assert.match(
      byId(rolled.checks)['log-consistency'].detail,
      /^the log shrank from 5 entries seen before to 3: a rollback$/,
    );
    assert.equal(rolled.advance, undefined);

    // The log's own key signing another history of the same size.
    const fork = logWorld(s.w.origin);
    fork.append({ other: 'history' });
    fork.append({ other: 'history 2' });
    const forged = fork.checkpoint(2, seedOf(s.w.logKey));
    const rewritten = checkLogEvidence(
      s.evidence({ previous: { checkpoint: forged, proof: s.w.consistency(2) } }),
    );
    assert.match(
      byId(rewritten.checks)['log-consistency'].detail,
      /is not an extension of the one seen before at size 2/,
    );
    assert.equal(rewritten.advance, undefined);
  });

  test('an object outside the log, at another index or with a bad proof fails its inclusion', () => {
    const s = scene();
    const [seal, cert] = s.evidence().objects;
    const wrongIndex = checkLogEvidence(s.evidence({ objects: [{ ...cert, index: s.sealIndex }] }));
    assert.equal(byId(wrongIndex.checks)['log-inclusion-certificate'].ok, false);
    assert.equal(byId(wrongIndex.checks)['log-key-certificate'], undefined);
    const beyond = checkLogEvidence(s.evidence({ objects: [{ ...seal, index: 99 }] }));
    assert.match(
      byId(beyond.checks)['log-inclusion-seal'].detail,
      /entry 99 is beyond the checkpoint's size 5/,
    );
    const none = checkLogEvidence(s.evidence({ objects: [{ ...seal, index: undefined }] }));
    assert.match(byId(none.checks)['log-inclusion-seal'].detail, /no log index is published/);
    const notHex = checkLogEvidence(s.evidence({ objects: [{ ...seal, proof: ['zz'] }] }));
    assert.match(byId(notHex.checks)['log-inclusion-seal'].detail, /not a list of hashes/);
  });

  test('signing keys come from the key entries: unannounced, retired and forged key entries, and a signature by another key, fail', () => {
    const s = scene();
    const late = {
      what: 'certificate' as const,
      object: s.late,
      index: s.lateIndex,
      proof: s.w.inclusion(s.lateIndex),
    };
    const retired = checkLogEvidence(s.evidence({ objects: [late] }));
    assert.match(byId(retired.checks)['log-key-certificate'].detail, /was retired in the log before entry 4/);

    // A kid that names a property of every object is still just a kid nobody announced.
    const odd = { ...s.cert, signature: { ...(s.cert.signature as object), kid: 'constructor' } };
    const w4 = logWorld();
    const i4 = w4.append(odd);
    const oddKid = checkLogEvidence({
      ...s.evidence(),
      logKey: w4.vkey,
      checkpoint: w4.checkpoint(),
      objects: [{ what: 'certificate', object: odd, index: i4, proof: w4.inclusion(i4) }],
      keyEntries: {},
    });
    assert.equal(
      byId(oddKid.checks)['log-key-certificate'].detail,
      'key constructor is not announced in the log before entry 0',
    );

    const none = checkLogEvidence(s.evidence({ keyEntries: {} }));
    assert.match(
      byId(none.checks)['log-key-seal'].detail,
      /^key [0-9a-f]{16} is not announced in the log before entry 1$/,
    );

    // A key entry signed by some other key than the log's, even if it is in the tree.
    const w2 = logWorld();
    const k2 = createSigningKey();
    w2.announce(k2);
    const cert2 = certificateBy(k2, 'c_2');
    const i2 = w2.append(cert2);
    const foreign = logWorld(w2.origin);
    const fakeIndex = foreign.announce(k2);
    const forgedEntry = checkLogEvidence({
      logKey: w2.vkey,
      keySource: { code: 'pinned-earlier' },
      checkpoint: w2.checkpoint(),
      objects: [{ what: 'certificate', object: cert2, index: i2, proof: w2.inclusion(i2) }],
      keyEntries: { [k2.kid]: [{ index: 0, leafData: foreign.leaves[fakeIndex], proof: w2.inclusion(0) }] },
      sha256,
    });
    assert.match(
      byId(forgedEntry.checks)['log-key-certificate'].detail,
      /^key entry 0: entry 0 is not this object/,
    );

    // The signature is checked with the key from the entry, not any other published key.
    const impostor = createSigningKey();
    const forgedSig = certificateBy(impostor, 'c_1').signature as Record<string, unknown>;
    const swapped = { ...s.cert, signature: { ...forgedSig, kid: s.k.kid } };
    const w3 = logWorld();
    const a3 = w3.announce(s.k);
    const i3 = w3.append(swapped);
    const bad = checkLogEvidence({
      logKey: w3.vkey,
      keySource: { code: 'pinned-earlier' },
      checkpoint: w3.checkpoint(),
      objects: [{ what: 'certificate', object: swapped, index: i3, proof: w3.inclusion(i3) }],
      keyEntries: { [s.k.kid]: [{ index: a3, leafData: w3.leaves[a3], proof: w3.inclusion(a3) }] },
      sha256,
    });
    assert.match(byId(bad.checks)['log-key-certificate'].detail, /does not verify under key/);
  });
});
