import { type Static, Type } from 'typebox';
import { LISTED_LINES } from '../../giveaways/entrants/participants.ts';
import { CountSchema, TelegramIdSchema } from '../schema-atoms.ts';
import { TextSchema } from '../schemas.ts';

/** The most one CSV or NDJSON upload may carry, in participants and in bytes. */
export const MAX_UPLOAD_ROWS = 1_000_000;
/**
 * MAX_UPLOAD_ROWS as the texts write it, grouped here rather than by toLocaleString: formatting a
 * number at load time brings ICU's number data into every process (about 7 MB resident).
 */
export const MAX_UPLOAD_ROWS_TEXT = String(MAX_UPLOAD_ROWS).replace(/\B(?=(\d{3})+$)/g, ',');
export const UPLOAD_MIB = 256;

/** One participant: a JSON body's item, an NDJSON line, a CSV row (its columns by these names). */
export const ParticipantSchema = Type.Object(
  {
    telegram_id: TelegramIdSchema(),
    username: Type.Optional(TextSchema({ maxLength: 256, description: 'A leading `@` is dropped' })),
    first_name: Type.Optional(TextSchema({ maxLength: 256 })),
  },
  { additionalProperties: false },
);

export const ParticipantsBodySchema = Type.Object(
  { participants: Type.Array(ParticipantSchema, { minItems: 1, maxItems: 10_000 }) },
  {
    additionalProperties: false,
    examples: [
      {
        participants: [
          { telegram_id: 123456789, username: '@alice', first_name: 'Alice' },
          { telegram_id: 987654321, username: 'bob' },
        ],
      },
    ],
  },
);
export type ParticipantsBody = Static<typeof ParticipantsBodySchema>;

const UPLOAD_RULES = `1 to ${MAX_UPLOAD_ROWS_TEXT} participants, at most ${UPLOAD_MIB} MiB, UTF-8; stored whole or not at all`;

/** An upload as the API reference shows it; the route receives it as a stream, never as one string. */
export const ParticipantsCsvSchema = Type.String({
  description: `RFC 4180 CSV: a header row naming the columns (\`telegram_id\`, and \`username\` and \`first_name\` if given, in any order), then one participant per row; an empty cell is no value. ${UPLOAD_RULES}.`,
  examples: ['telegram_id,username,first_name\r\n123456789,@alice,Alice\r\n987654321,bob,\r\n'],
});

export const ParticipantsNdjsonSchema = Type.String({
  description: `One JSON object per line, each like an item of the JSON body's \`participants\`. ${UPLOAD_RULES}.`,
  examples: [
    '{"telegram_id": 123456789, "username": "@alice", "first_name": "Alice"}\n{"telegram_id": 987654321, "username": "bob"}\n',
  ],
});

export const ParticipantsResponseSchema = Type.Object(
  {
    added: CountSchema(),
    duplicates: CountSchema({ description: 'Already joined, or repeated in this request' }),
    participants_count: CountSchema(),
    duplicate_lines: Type.Optional(
      Type.Array(Type.Integer({ minimum: 1 }), {
        maxItems: LISTED_LINES,
        description: `Uploads only: the lines (1 is the first line of the upload, a CSV's header) of the first ${LISTED_LINES} duplicates; \`duplicates\` counts them all`,
      }),
    ),
  },
  {
    description: 'How many joined now; a telegram_id already in the list is counted as a duplicate',
    examples: [
      { added: 2, duplicates: 0, participants_count: 2 },
      { added: 999_998, duplicates: 2, participants_count: 1_000_000, duplicate_lines: [17, 40_512] },
    ],
  },
);
export type ParticipantsResponse = Static<typeof ParticipantsResponseSchema>;
