import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { type Amendment, checkAmendments } from '../../src/proof/amendments.ts';
import { bearer } from '../helpers/app.ts';
import { API, addParticipants, people } from './giveaway-helpers.ts';
import { createVerifiable, seal, type VerifiableApp } from './verifiable-helpers.ts';

const sha256 = (data: Uint8Array) => new Uint8Array(createHash('sha256').update(data).digest());

/** A verifiable giveaway of `key`, sealed and drawn on the fake chain: its public id and certificate id. */
export async function drawnGiveaway(
  t: VerifiableApp,
  key: string,
  options: { winners?: number; reserves?: number; entrants?: number; claim_within?: string } = {},
) {
  const id = await createVerifiable(t, key, {
    winners_count: options.winners ?? 2,
    reserve_count: options.reserves ?? 2,
    ...(options.claim_within ? { claim_within: options.claim_within } : {}),
  });
  await addParticipants(t, key, id, people(options.entrants ?? 10));
  const sealed = await seal(t, key, id);
  assert.equal(sealed.statusCode, 200, sealed.body);
  t.reachRound(sealed.json().seal.beacon.round);
  await t.runner.runDue();
  const drawn = await getGiveaway(t, key, id);
  assert.equal(drawn.status, 'completed');
  return { id, certificateId: drawn.certificate_id as string, drawn };
}

export async function getGiveaway(t: VerifiableApp, key: string, id: string) {
  const res = await t.app.inject({ url: `${API}/${id}`, headers: bearer(key) });
  assert.equal(res.statusCode, 200, res.body);
  return res.json();
}

export function replace(
  t: Pick<VerifiableApp, 'app'>,
  key: string,
  id: string,
  position: number | string,
  body: Record<string, unknown> = { reason: 'other' },
) {
  return t.app.inject({
    method: 'POST',
    url: `${API}/${id}/winners/${position}/replace`,
    headers: bearer(key),
    payload: body,
  });
}

export function claim(t: Pick<VerifiableApp, 'app'>, key: string, id: string, position: number | string) {
  return t.app.inject({
    method: 'POST',
    url: `${API}/${id}/winners/${position}/claim`,
    headers: bearer(key),
  });
}

/** The certificate as /verify/{id}.json publishes it, and the verdict of the pure checker on it. */
export async function publishedAndChecked(t: VerifiableApp, certificateId: string) {
  const certificate = (await t.app.inject({ url: `/verify/${certificateId}.json` })).json();
  const keys = (await t.app.inject({ url: '/.well-known/tyche-keys.json' })).json();
  const amendments = (certificate.amendments ?? []) as Amendment[];
  return { certificate, amendments, verdict: checkAmendments({ certificate, amendments, keys, sha256 }) };
}
