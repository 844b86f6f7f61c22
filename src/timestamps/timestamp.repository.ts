import type { Kysely } from 'kysely';
import { isoTime } from '../shared/clock.ts';
import { prepareQuery } from '../store/prepared-query.ts';
import type { Database } from '../store/schema.ts';

/** What a token is kept for: a seal or a certificate, by its id. */
export type SubjectKind = 'seal' | 'certificate';

/** A kept token as published beside its signed object (CONTRACT §13). */
export interface Stamp {
  /** The TSA's URL. */
  tsa: string;
  /** The token's genTime, RFC 3339 UTC with milliseconds. */
  gen_time: string;
  /** Base64 of the DER TimeStampToken. */
  token: string;
}

export interface NewStamp {
  kind: SubjectKind;
  id: string;
  tsa: string;
  genTime: number;
  token: string;
  at: number;
}

export function createTimestampRepository(db: Kysely<Database>) {
  // Every receipt carries its seal's tokens: PostgreSQL prepares the read once per connection.
  const tokensOf = prepareQuery(db, (slot) =>
    db
      .selectFrom('timestamps')
      .select(['tsa', 'gen_time', 'token'])
      .where('subject_kind', '=', slot<SubjectKind>('kind'))
      .where('subject_id', '=', slot<string>('id'))
      .orderBy('gen_time')
      .orderBy('tsa'),
  );
  return {
    /** Keeps a token; a second one from the same TSA for the same object is dropped, so a retry doubles nothing. */
    async insert(stamp: NewStamp): Promise<void> {
      await db
        .insertInto('timestamps')
        .values({
          subject_kind: stamp.kind,
          subject_id: stamp.id,
          tsa: stamp.tsa,
          gen_time: stamp.genTime,
          token: stamp.token,
          created_at: stamp.at,
        })
        .onConflict((oc) => oc.columns(['subject_kind', 'subject_id', 'tsa']).doNothing())
        .execute();
    },

    /** The tokens kept for one object, earliest genTime first. */
    async of(kind: SubjectKind, id: string): Promise<Stamp[]> {
      const { rows } = await tokensOf({ kind, id });
      return rows.map((r) => ({
        tsa: r.tsa,
        gen_time: isoTime(Number(r.gen_time)),
        token: r.token,
      }));
    },
  };
}

export type TimestampRepository = ReturnType<typeof createTimestampRepository>;
