import assert from 'node:assert/strict';
import type { ParticipantInput } from '../../src/giveaways/giveaway.service.ts';
import { bearer, type TestApp } from '../helpers/app.ts';

/** Only the app is needed, so the helpers also serve apps built by hand. */
type WithApp = Pick<TestApp, 'app'>;

export const API = '/api/v1/giveaways';

/**
 * Instant (tyche-draw-v1) unless the body says otherwise: most tests here are about the API
 * around a draw, and a verifiable draw needs a drand chain (see verifiable-helpers.ts).
 */
export async function createGiveaway(
  t: WithApp,
  key: string,
  body: Record<string, unknown> = { title: 'Launch giveaway', winners_count: 1 },
): Promise<string> {
  const payload = { draw_mode: 'instant', ...body };
  const res = await t.app.inject({ method: 'POST', url: API, headers: bearer(key), payload });
  assert.equal(res.statusCode, 201, res.body);
  return res.json().public_id;
}

export async function addParticipants(
  t: WithApp,
  key: string,
  publicId: string,
  participants: ParticipantInput[],
) {
  const res = await t.app.inject({
    method: 'POST',
    url: `${API}/${publicId}/participants`,
    headers: bearer(key),
    payload: { participants },
  });
  assert.equal(res.statusCode, 200, res.body);
  return res.json() as { added: number; duplicates: number; participants_count: number };
}

export function draw(t: WithApp, key: string, publicId: string) {
  return t.app.inject({ method: 'POST', url: `${API}/${publicId}/draw`, headers: bearer(key) });
}

/** `count` participants with ids start, start+1, … */
export function people(count: number, start = 1): ParticipantInput[] {
  return Array.from({ length: count }, (_, i) => ({ telegram_id: start + i, username: `user${start + i}` }));
}

/** A giveaway of `key` with `count` participants, ready to draw. */
export async function readyGiveaway(t: TestApp, key: string, count = 3, winners = 1): Promise<string> {
  const id = await createGiveaway(t, key, { title: 'Ready', winners_count: winners });
  await addParticipants(t, key, id, people(count));
  return id;
}

export function expectProblem(
  res: { statusCode: number; body: string; headers: Record<string, unknown>; json(): { code: string } },
  status: number,
  code: string,
) {
  assert.equal(res.statusCode, status, res.body);
  assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
  assert.equal(res.json().code, code);
}

/** A public_id that names nothing, in the forms a client might send. */
export const UNKNOWN_IDS = [
  'AAAAAAAAAAAA',
  'zz',
  'g_7HkQ2xN4',
  '1',
  "x'; drop table giveaways; --",
  'a'.repeat(100),
  'b'.repeat(900),
];
