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

const ENTRY = { title: 'T', entry_number: 1, salt: null, excluded: null, joined_at: 0 };

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
    entries: {
      latestOf: async () => [
        {
          ...ENTRY,
          public_id: 'g_drawn',
          status: 'completed',
          certificate_id: 'c_1',
          salt: '00ff',
          ends_at: Date.UTC(2026, 5, 1),
          draw_mode: 'verifiable',
        },
        {
          ...ENTRY,
          public_id: 'g_open',
          status: 'active',
          certificate_id: null,
          excluded: 'left the channel',
          ends_at: null,
          draw_mode: 'instant',
        },
      ],
    },
    standing: async (row: GiveawayRow) => {
      standings.push(row.id);
      return standing;
    },
  } as unknown as ConsoleDeps;
  return { console: createGiveawayConsole(deps), reads, standings };
}

test("the Mini App's claim state reads a giveaway once, and the standing only of a drawn one", async () => {
  const { console, reads, standings } = consoleWithCounts();
  assert.deepEqual(await console.winnerStandingOf('g_drawn', 42), WINNER);
  assert.equal(await console.winnerStandingOf('g_drawn', 7), undefined, 'holds no position');
  assert.equal(await console.winnerStandingOf('g_open', 42), undefined, 'not drawn');
  assert.equal(await console.winnerStandingOf('g_gone', 42), undefined, 'not found');
  assert.deepEqual(reads, ['g_drawn', 'g_drawn', 'g_open', 'g_gone'], 'one read per call');
  assert.deepEqual(standings, [1, 1], 'standing only when drawn');
});

test("a user's entries carry their giveaway's end, mode and links from the one query that lists them", async () => {
  const { console, reads } = consoleWithCounts();
  const entries = await console.entriesOf(42, 10);
  assert.deepEqual(
    entries.map((e) => [e.public_id, e.ends_at, e.draw_mode, e.verify_url, e.receipt_url]),
    [
      [
        'g_drawn',
        Date.UTC(2026, 5, 1),
        'verifiable',
        'https://tyche.example/verify/c_1',
        'https://tyche.example/g/g_drawn/receipt#42.00ff',
      ],
      ['g_open', null, 'instant', null, null],
    ],
  );
  assert.deepEqual(reads, [], 'no giveaway read beside the list');
});
