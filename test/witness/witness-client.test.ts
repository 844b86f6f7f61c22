import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { ed25519 } from '@noble/curves/ed25519.js';
import { submitToWitness, type WitnessRequest } from '../../src/log/witness-client.ts';
import { cosign, cosignerVerifierKey, verifyCosignature } from '../../src/proof/cosignature.ts';
import { parseVerifierKey } from '../../src/proof/note.ts';
import { formatAddCheckpoint, formatCosignatureLines } from '../../src/proof/witness-protocol.ts';
import { createWitnessRepository } from '../../src/witness/witness.repository.ts';
import { createWitness } from '../../src/witness/witness.service.ts';
import { buildWitnessApp } from '../../src/witness/witness-app.ts';
import { ensureWitnessKey } from '../../src/witness/witness-key.ts';
import { createFakeClock } from '../helpers/fake-clock.ts';
import { type OpenedStore, storeTargets } from '../helpers/stores.ts';
import { type GrowingLog, growingLog } from './witness-helpers.ts';

const ORIGIN = 'client.example/log';
const NAME = 'client.example/witness';
const [sqlite] = await storeTargets();

type Handler = (req: IncomingMessage, body: string, res: ServerResponse) => void;

/** A stand-in witness on 127.0.0.1 that answers as `handler` says. */
async function fakeWitness(handler: Handler) {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => {
      body += d;
    });
    req.on('end', () => handler(req, body, res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('submitToWitness', () => {
  const clock = createFakeClock('2026-11-01T00:00:00.000Z');
  let opened: OpenedStore;
  let log: GrowingLog;
  let real: { url: string; key: string; close(): Promise<unknown> };
  const seed = new Uint8Array(32).fill(5);
  const fakeKey = parseVerifierKey(cosignerVerifierKey(NAME, ed25519.getPublicKey(seed)));

  before(async () => {
    opened = await sqlite.open();
    log = growingLog(opened.store, ORIGIN);
    await log.grow(4);
    const key = await ensureWitnessKey(opened.store.db, NAME, clock.now().getTime());
    const witness = createWitness({
      name: NAME,
      key,
      logs: [await log.entry()],
      repository: createWitnessRepository(opened.store.db),
      clock,
    });
    const app = await buildWitnessApp(witness);
    real = {
      url: await app.listen({ host: '127.0.0.1', port: 0 }),
      key: key.verifierKey,
      close: () => app.close(),
    };
  });
  after(async () => {
    await real.close();
    await opened.cleanup();
  });

  async function ask(size: number, oldSize: number, extra: Partial<WitnessRequest> = {}) {
    return submitToWitness({
      url: real.url,
      witnessKey: parseVerifierKey(real.key),
      oldSize,
      proof: await log.log.consistencyProof(oldSize, size),
      note: (await log.signedCheckpoint(size)).note,
      timeoutMs: 5000,
      ...extra,
    });
  }

  test('a real witness: cosigned, then a conflict naming its size, then a refusal', async () => {
    const cosigned = await ask(2, 0, { url: `${real.url}/` });
    assert.equal(cosigned.status, 'cosigned', JSON.stringify(cosigned));
    if (cosigned.status !== 'cosigned') return;
    assert.equal(cosigned.signatures.length, 1);
    const { text } = await log.signedCheckpoint(2);
    assert.deepEqual(verifyCosignature(text, cosigned.signatures[0], real.key), {
      ok: true,
      timestamp: Date.parse('2026-11-01T00:00:00Z') / 1000,
    });
    assert.deepEqual(await ask(4, 0), { status: 'conflict', size: 2 });
    const refused = await ask(4, 2, { proof: [] });
    assert.equal(refused.status, 'failed');
    assert.match(refused.status === 'failed' ? refused.reason : '', /^HTTP 422: the consistency proof/);
  });

  test('keeps only the cosignatures by the witness key that verify over this checkpoint', async () => {
    const { text, note } = await log.signedCheckpoint(3);
    const { text: otherText } = await log.signedCheckpoint(2);
    const good = cosign(text, NAME, seed, 1_800_000_000);
    const answers = [
      formatCosignatureLines([cosign(text, 'someone.example/w', new Uint8Array(32).fill(6), 5), good]),
      formatCosignatureLines([cosign(otherText, NAME, seed, 7)]),
    ];
    const received: string[] = [];
    const fake = await fakeWitness((req, body, res) => {
      received.push(`${req.method} ${req.url}\n${body}`);
      res.writeHead(200, { 'content-type': 'text/plain' }).end(answers[received.length - 1]);
    });
    try {
      const request = {
        url: fake.url,
        witnessKey: fakeKey,
        oldSize: 2,
        proof: await log.log.consistencyProof(2, 3),
        note,
        timeoutMs: 5000,
      };
      assert.deepEqual(await submitToWitness(request), { status: 'cosigned', signatures: [good] });
      assert.equal(received[0], `POST /add-checkpoint\n${formatAddCheckpoint(request)}`);
      const wrongTree = await submitToWitness(request);
      assert.equal(wrongTree.status, 'failed');
      assert.match(wrongTree.status === 'failed' ? wrongTree.reason : '', /no cosignature .* verifies/);
    } finally {
      await fake.close();
    }
  });

  test('every other answer, and no answer at all, is a failure with a reason, never an exception', async () => {
    const { note } = await log.signedCheckpoint(3);
    const base = { witnessKey: fakeKey, oldSize: 0, proof: [], note, timeoutMs: 5000 };
    const answers: [number, Record<string, string>, string, RegExp][] = [
      [409, { 'content-type': 'text/plain' }, '3\n', /a 409 without a text\/x.tlog.size size/],
      [409, { 'content-type': 'text/x.tlog.size' }, 'three\n', /a 409 without/],
      [500, {}, 'internal error\n', /^HTTP 500: internal error$/],
      [200, {}, 'cosigned!\n', /an unreadable answer/],
      [200, {}, '', /an unreadable answer/],
      [302, { location: '/elsewhere' }, '', /cannot reach it/],
      [200, {}, 'x'.repeat(70_000), /oversized/],
    ];
    for (const [status, headers, body, reason] of answers) {
      const fake = await fakeWitness((_req, _body, res) => res.writeHead(status, headers).end(body));
      try {
        const answer = await submitToWitness({ ...base, url: fake.url });
        assert.equal(answer.status, 'failed', `${status} ${body.slice(0, 20)}`);
        assert.match(answer.status === 'failed' ? answer.reason : '', reason);
      } finally {
        await fake.close();
      }
    }
    const conflict = await fakeWitness((_req, _body, res) =>
      res.writeHead(409, { 'content-type': 'text/x.tlog.size; charset=utf-8' }).end('17\n'),
    );
    assert.deepEqual(await submitToWitness({ ...base, url: conflict.url }), { status: 'conflict', size: 17 });
    await conflict.close();

    const silent = await fakeWitness(() => {});
    const timedOut = await submitToWitness({ ...base, url: silent.url, timeoutMs: 100 });
    assert.equal(timedOut.status, 'failed');
    await silent.close();
    const gone = await fakeWitness(() => {});
    await gone.close();
    assert.match(JSON.stringify(await submitToWitness({ ...base, url: gone.url })), /cannot reach it/);
    const broken = await submitToWitness({
      ...base,
      url: 'http://witness.invalid',
      fetch: async () => {
        throw new TypeError('fetch failed');
      },
    });
    assert.deepEqual(broken, { status: 'failed', reason: 'cannot reach it: fetch failed' });
    assert.match(
      JSON.stringify(await submitToWitness({ ...base, url: gone.url, note: 'not a note' })),
      /cannot be made/,
    );
  });
});
