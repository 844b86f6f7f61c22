import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { bearer, startTestApp } from '../helpers/app.ts';
import { createFakeClock } from '../helpers/fake-clock.ts';
import {
  ANU_MODES,
  type AnuMode,
  DRAND_MODES,
  type FakeUpstreams,
  NIST_MODES,
  startFakeUpstreams,
} from '../helpers/fake-upstreams.ts';
import { sentTo, settledYet } from '../helpers/source-testing.ts';

const EXTERNAL = ['anu', 'nist', 'drand'] as const;
const FETCH_TIMEOUT_MS = 300;

/**
 * Every way an upstream breaks, through the whole stack: the cascade moves on to the next level
 * and the response (and its operation record) names the source that really served. Upstream
 * timeouts and the time budget run on the fake clock, so a hang costs the test no real time.
 */
describe('cascade against fake upstreams', () => {
  const clock = createFakeClock('2026-11-21T12:00:00Z');
  let fakes: FakeUpstreams;
  before(async () => {
    fakes = await startFakeUpstreams(clock);
  });
  after(() => fakes.close());

  /** A fresh app (fresh pools and breakers); `settled` hears of every fetch that ends, either way. */
  const app = (
    sources = 'anu,nist,drand,system',
    budget = 1000,
    settled?: (source: string, ok: boolean) => void,
  ) => {
    const options = fakes.appOptions(sources, budget);
    const randomness = {
      ...options.randomness,
      fetchTimeoutMs: FETCH_TIMEOUT_MS,
      timers: clock,
      fetched: (source: string) => settled?.(source, true),
      log: (source: string) => settled?.(source, false),
    };
    return startTestApp({ clock, ...options, randomness });
  };

  /** Serves one value once every level is warmed; `hung` is the upstream the test set to hang. */
  const served = async (hung?: 'anu' | 'nist' | 'drand') => {
    const others = EXTERNAL.filter((source) => source !== hung);
    let othersDone = () => {};
    const othersSettled = new Promise<void>((resolve) => {
      othersDone = resolve;
    });
    const seen = new Set<string>();
    const t = await app(undefined, undefined, (source) => {
      seen.add(source);
      if (others.every((other) => seen.has(other))) othersDone();
    });
    try {
      if (hung) {
        // Every level's first fetch is out. Once the others have ended, only the timeout (which
        // the clock runs) can end the hung one.
        const { pending } = await sentTo(fakes[hung], () => t.services.cascade.warm());
        await othersSettled;
        clock.advance(FETCH_TIMEOUT_MS);
        await pending;
      } else {
        await t.services.cascade.warm();
      }
      const key = await t.key();
      const res = await t.app.inject({ url: '/api/v1/random/int?min=1&max=10', headers: bearer(key) });
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json();
      const op = (
        await t.app.inject({ url: `/api/v1/operations/${body.request_id}`, headers: bearer(key) })
      ).json();
      assert.equal(op.qrng_source, body.qrng_source, 'the log agrees with the response');
      return { source: body.qrng_source as string, reference: op.source_reference as string };
    } finally {
      // The request asked the hung upstream again: cut that fetch too rather than leave it open.
      if (hung) clock.advance(FETCH_TIMEOUT_MS);
      await t.close();
    }
  };

  const setModes = async (a: string, n: string, d: string) => {
    await fakes.anu.setMode(a as AnuMode);
    await fakes.nist.setMode(n as never);
    await fakes.drand.setMode(d as never);
  };

  test('a healthy first level serves, with its batch and byte range as reference', async () => {
    await setModes('ok', 'ok', 'ok');
    const { source, reference } = await served();
    assert.equal(source, 'anu');
    assert.match(reference, /^anu:[0-9a-f-]{36}#0-16$/);
  });

  for (const mode of ANU_MODES) {
    test(`anu ${mode} → nist serves, named by its pulse URI`, async () => {
      await setModes(mode, 'ok', 'ok');
      const { source, reference } = await served(mode === 'hang' ? 'anu' : undefined);
      assert.equal(source, 'nist');
      assert.match(reference, /\/beacon\/2\.0\/chain\/\d+\/pulse\/\d+$/);
    });
  }

  for (const mode of NIST_MODES) {
    test(`anu down, nist ${mode} → drand serves, named by its round`, async () => {
      await setModes('error-500', mode, 'ok');
      const { source, reference } = await served(mode === 'hang' ? 'nist' : undefined);
      assert.equal(source, 'drand');
      assert.match(reference, /^\d+$/);
    });
  }

  for (const mode of DRAND_MODES) {
    test(`anu and nist down, drand ${mode} → system serves`, async () => {
      await setModes('error-500', 'error-500', mode);
      // A stuck chain keeps answering its last round; it goes stale only as time passes.
      if (mode === 'stuck') clock.advance(6 * fakes.drand.period * 1000);
      const { source, reference } = await served(mode === 'hang' ? 'drand' : undefined);
      assert.equal(source, 'system');
      assert.match(reference, /^system:/);
    });
  }

  test('nothing can serve → 503 randomness_unavailable with Retry-After once the budget is spent, and refunded', async () => {
    await setModes('hang', 'refuse', 'error-500');
    // nist and drand fail for real, and are asked again until their breakers open (three failures
    // each); anu hangs. From then on only the time budget can end the request's wait.
    const failures = { anu: 0, nist: 0, drand: 0 } as Record<string, number>;
    let bothOpen = () => {};
    const opened = new Promise<void>((resolve) => {
      bothOpen = resolve;
    });
    const t = await app('anu,nist,drand', 200, (source, ok) => {
      if (!ok) failures[source]++;
      if (failures.nist >= 3 && failures.drand >= 3) bothOpen();
    });
    try {
      const key = await t.key({ dailyLimit: 10 });
      const answer = t.app.inject({ url: '/api/v1/random/bytes', headers: bearer(key) });
      await opened;
      clock.advance(199);
      assert.equal(await settledYet(answer), false, 'the hung level might still answer within the budget');
      clock.advance(1);
      const res = await answer;
      assert.equal(res.statusCode, 503);
      assert.equal(res.json().code, 'randomness_unavailable');
      assert.equal(res.headers['retry-after'], '30', 'when the open breakers let a trial through');
      assert.equal(res.headers['x-ratelimit-remaining'], '10', 'a 5xx is refunded');
      assert.deepEqual(failures, { anu: 0, nist: 3, drand: 3 }, 'the budget, not the hang, ended it');
      const me = (await t.app.inject({ url: '/api/v1/me', headers: bearer(key) })).json();
      assert.equal(me.requests_today, 0);
      const metrics = (await t.app.inject({ url: '/metrics' })).body;
      assert.match(metrics, /tyche_source_failures_total\{source="nist"\} 3/);
      assert.match(metrics, /tyche_source_failures_total\{source="drand"\} 3/);
    } finally {
      clock.advance(FETCH_TIMEOUT_MS);
      await t.close();
    }
  });

  test('private bytes serve one request each, all of its values; a beacon value serves many', async () => {
    await setModes('ok', 'ok', 'ok');
    const t = await app('anu,system');
    try {
      await t.services.cascade.warm();
      const key = await t.key();
      const referencesOf = async (ids: string[]) => {
        const refs = new Set<string>();
        for (const id of ids) {
          const op = await t.app.inject({ url: `/api/v1/operations/${id}`, headers: bearer(key) });
          assert.equal(op.json().qrng_source, 'anu');
          refs.add(op.json().source_reference);
        }
        return [...refs];
      };
      const requests = [];
      for (let i = 0; i < 3; i++) {
        const body = (
          await t.app.inject({ url: '/api/v1/random/int?min=1&max=10&count=5', headers: bearer(key) })
        ).json();
        assert.equal(body.qrng_source, 'anu');
        const refs = await referencesOf(body.qrng_request_ids);
        assert.equal(refs.length, 1, 'the values of one request share its seed and its bytes');
        requests.push(refs[0]);
      }
      assert.equal(new Set(requests).size, 3, 'no ANU byte range serves two requests');
      const metrics = (await t.app.inject({ url: '/metrics' })).body;
      assert.match(metrics, /tyche_operations_total\{source="anu"\} 15/);
    } finally {
      await t.close();
    }
    const b = await app('nist');
    try {
      const key = await b.key();
      const body = (
        await b.app.inject({ url: '/api/v1/random/int?min=1&max=10&count=5', headers: bearer(key) })
      ).json();
      assert.equal(body.qrng_source, 'nist');
      const refs = new Set<string>();
      for (const id of body.qrng_request_ids) {
        refs.add(
          (await b.app.inject({ url: `/api/v1/operations/${id}`, headers: bearer(key) })).json()
            .source_reference,
        );
      }
      assert.equal(refs.size, 1, 'one fresh pulse serves every operation');
      const metrics = (await b.app.inject({ url: '/metrics' })).body;
      assert.match(metrics, /tyche_source_fetches_total\{source="nist"\} 1/);
      assert.match(metrics, /tyche_source_pool_fill\{source="nist"\} 1/);
      assert.match(metrics, /tyche_source_breaker_state\{source="nist"\} 0/);
      assert.match(metrics, /tyche_operations_total\{source="nist"\} 5/);
    } finally {
      await b.close();
    }
  });
});
