import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { GiveawayService } from '../../giveaways/giveaway.service.ts';
import { AppError, type ErrorCode } from '../../shared/errors.ts';
import { accountOf } from '../auth.ts';
import { BODY_ERRORS, errorResponses, OWNED_ERRORS } from '../schemas.ts';
import { PublicIdParamsSchema } from './giveaway.schemas.ts';
import {
  acceptUploads,
  checkedBatches,
  checkUpload,
  discardUpload,
  mayBeTooLong,
  spoolOf,
} from './participant-upload.ts';
import {
  MAX_UPLOAD_ROWS_TEXT,
  type ParticipantsBody,
  ParticipantsBodySchema,
  ParticipantsCsvSchema,
  ParticipantsNdjsonSchema,
  ParticipantsResponseSchema,
  UPLOAD_MIB,
} from './participants.schemas.ts';

const ERRORS: ErrorCode[] = [...BODY_ERRORS, ...OWNED_ERRORS, 'giveaway_sealed', 'giveaway_completed'];

function participantsRequired(): AppError {
  return new AppError('missing_parameter', 'participants is required', {
    errors: [{ parameter: 'participants', message: 'is required' }],
  });
}

const DESCRIPTION = `Idempotent per \`telegram_id\`: one already in the list, or repeated in the request, is counted in \`duplicates\` and keeps its first entry. Three forms of body: JSON (\`application/json\`, 1–10 000 participants); CSV (\`text/csv\`) or JSON lines (\`application/x-ndjson\`), up to ${MAX_UPLOAD_ROWS_TEXT} participants and ${UPLOAD_MIB} MiB in one streamed request. An upload is checked whole before anything is stored, then stored in one transaction: one line at fault and nothing is added — the answer is 422 \`invalid_type\` when any value cannot be read as its type, else 400 (\`invalid_json\` for a line that is not a JSON object, \`missing_parameter\`, \`invalid_parameter\`), with the number of lines at fault in \`detail\` and the first 100 problems in \`errors\`, each named \`line N: field\` (line 1 is the first line, a CSV's header). An upload counts as one request against the daily limit. The whole request must arrive within the server's 30 s request timeout.`;

/**
 * Adding participants: the JSON body of up to 10 000, or a CSV or NDJSON upload of up to a
 * million. Its own plugin, so the upload parsers apply to this route alone.
 */
export const participantRoutes: FastifyPluginAsyncTypebox<{ giveaways: GiveawayService }> = async (
  app,
  { giveaways },
) => {
  acceptUploads(app);

  app.post(
    '/giveaways/:public_id/participants',
    {
      schema: {
        tags: ['giveaways'],
        security: [{ bearer: [] }],
        operationId: 'addParticipants',
        summary: 'Add participants (idempotent per telegram_id) while the giveaway is active',
        description: DESCRIPTION,
        params: PublicIdParamsSchema,
        body: {
          content: {
            'application/json': { schema: ParticipantsBodySchema },
            'text/csv': { schema: ParticipantsCsvSchema },
            'application/x-ndjson': { schema: ParticipantsNdjsonSchema },
          },
        },
        response: { 200: ParticipantsResponseSchema, ...errorResponses(ERRORS) },
      },
    },
    async (request) => {
      const account = accountOf(request);
      const spooled = spoolOf(request);
      if (!spooled) {
        // A request with neither body nor type skips Fastify's per-content-type validation.
        if (request.body === undefined) throw participantsRequired();
        const { participants } = request.body as ParticipantsBody;
        return giveaways.addParticipants(account, request.params.public_id, participants);
      }
      const pass = checkedBatches(spooled);
      let checked = false;
      try {
        if (mayBeTooLong(spooled)) {
          checked = true;
          await checkUpload(spooled);
        }
        return await giveaways.uploadParticipants(account, request.params.public_id, pass.batches);
      } catch (error) {
        // An upload at fault is answered with its faults whatever else stopped it (the giveaway
        // not found or closed, a store error), as when every upload was checked before the
        // giveaway was looked up: read it through when the store stopped before its end.
        if (!checked && !pass.finished()) await checkUpload(spooled);
        throw error;
      } finally {
        await discardUpload(request);
      }
    },
  );
};
