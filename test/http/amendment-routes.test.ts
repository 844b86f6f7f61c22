import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { securitySuite } from '../helpers/security-suite.ts';

const API = '/api/v1/giveaways';

describe('the claim and replace routes', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  test('are in the OpenAPI document with their errors, the amendment schema and giveaway.amended', async () => {
    const doc = (await t.app.inject({ url: '/api/v1/openapi.json' })).json();
    const replace = doc.paths['/api/v1/giveaways/{public_id}/winners/{position}/replace'].post;
    const claim = doc.paths['/api/v1/giveaways/{public_id}/winners/{position}/claim'].post;
    assert.equal(replace.operationId, 'replaceWinner');
    assert.equal(claim.operationId, 'claimWinner');
    const conflicts = replace.responses['409'].description as string;
    for (const code of ['not_drawn', 'no_reserves_left', 'condition_met', 'position_replaced']) {
      assert.match(conflicts, new RegExp(`\`${code}\``));
    }
    assert.match(replace.responses['503'].description, /`telegram_unavailable`/);
    assert.match(claim.responses['409'].description, /`claim_expired`/);
    assert.ok(doc.webhooks['giveaway.amended'], 'the webhook event is documented');
    const body = JSON.stringify(replace.requestBody);
    for (const reason of ['left_channel', 'unclaimed', 'ineligible', 'duplicate_account', 'other']) {
      assert.ok(body.includes(reason), reason);
    }
  });
});

describe('security of POST …/winners/{position}/replace', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());
  securitySuite(
    () => t,
    () => ({ method: 'POST', url: `${API}/AAAAAAAAAAAA/winners/1/replace`, payload: { reason: 'other' } }),
  );
});

describe('security of POST …/winners/{position}/claim', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());
  securitySuite(
    () => t,
    () => ({ method: 'POST', url: `${API}/AAAAAAAAAAAA/winners/1/claim` }),
  );
});
