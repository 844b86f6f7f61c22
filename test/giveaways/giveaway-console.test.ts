import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Standing } from '../../src/giveaways/amendments/winner-standing.ts';
import type { GiveawayRow } from '../../src/giveaways/core/giveaway.repository.ts';
import { createGiveawayConsole } from '../../src/giveaways/giveaway-console.ts';

type ConsoleDeps = Parameters<typeof createGiveawayConsole>[0];

const ROWS: Record<string, Partial<GiveawayRow>> = {
  g_drawn: {
    id: 1,
    public_id: 'g_drawn',
    status: 'completed',
    draw_mode: 'verifiable',
    ends_at: Date.UTC(2026, 5, 1),
    certificate_id: 'c_1',
  },
  g_open: {
    id: 2,
    public_id: 'g_open',
    status: 'active',
    draw_mode: 'instant',
    ends_at: null,
    certificate_id: null,
  },
};

const WINNER = {
  position: 1,
  index: 0,
  telegram_id: 42,
  username: null,
  since: 0,
  deadline: 1_000,
  claimedAt: null,
  claimedBy: null,
};

function consoleWithCounts() {
  const reads: string[] = [];
  const standings: number[] = [];
  const standing: Standing = { winners: [WINNER], amendments: 0, reservesLeft: 0 };
  const deps = {
    publicBaseUrl: 'https://tyche.example',
    giveaways: {
      findByPublicId: async (publicId: string) => {
        reads.push(publicId);
        return ROWS[publicId] as GiveawayRow | undefined;
      },
      findById: async () => undefined,
    },
    standing: async (row: GiveawayRow) => {
      standings.push(row.id);
      return standing;
    },
  } as unknown as ConsoleDeps;
  return { console: createGiveawayConsole(deps), reads, standings };
}

test("the Mini App's entry reads its giveaway once, and the standing only of a drawn one it is asked for", async () => {
  const { console, reads, standings } = consoleWithCounts();
  assert.deepEqual(await console.entryGiveaway('g_drawn', 42, true), {
    ends_at: '2026-06-01T00:00:00.000Z',
    draw_mode: 'verifiable',
    verify_url: 'https://tyche.example/verify/c_1',
    winner: WINNER,
  });
  assert.equal((await console.entryGiveaway('g_drawn', 7, true))?.winner, undefined, 'holds no position');
  assert.equal((await console.entryGiveaway('g_drawn', 42, false))?.winner, undefined, 'not asked');
  assert.deepEqual(await console.entryGiveaway('g_open', 42, true), {
    ends_at: null,
    draw_mode: 'instant',
    verify_url: null,
    winner: undefined,
  });
  assert.equal(await console.entryGiveaway('g_gone', 42, true), undefined);
  assert.deepEqual(reads, ['g_drawn', 'g_drawn', 'g_drawn', 'g_open', 'g_gone'], 'one read per call');
  assert.deepEqual(standings, [1, 1], 'standing only when asked and drawn');
});
