import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { sqliteRowArrays } from '../../src/store/row-arrays.ts';
import { openSqlite } from '../../src/store/sqlite.ts';

test('SQLite: a marked SELECT hands its rows over as arrays; the same SELECT unmarked still as objects', async () => {
  const { db, raw } = openSqlite(':memory:');
  try {
    raw.exec("create table t (id integer, name text); insert into t values (1, 'a'), (2, null)");
    const query = db
      .selectFrom(sql`t`.as('t'))
      .select([sql<string>`cast(id as text)`.as('id'), sql<string | null>`name`.as('name')])
      .where(sql`id`, '>=', 1)
      .orderBy(sql`id`);
    // Twice each, in turns: the prepared statements are cached by their text, and neither form
    // may reach the other's.
    for (let i = 0; i < 2; i++) {
      assert.deepEqual(await sqliteRowArrays<[string, string | null]>(db, query), [
        ['1', 'a'],
        ['2', null],
      ]);
      assert.deepEqual(
        (await query.execute()).map((row) => ({ ...row })),
        [
          { id: '1', name: 'a' },
          { id: '2', name: null },
        ],
      );
    }
  } finally {
    await db.destroy();
  }
});
