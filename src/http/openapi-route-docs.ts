import { Type } from 'typebox';
import {
  CertificateSchema,
  InclusionProofSchema,
  OrganizerRecordSchema,
  PublicGiveawaySchema,
  PublicTicketSchema,
} from './public.schemas.ts';
import { EXAMPLE_BASE_URL } from './schema-examples.ts';
import { errorResponses, NOT_MODIFIED as NOT_MODIFIED_SCHEMA } from './schemas.ts';

/**
 * Reference text for the public pages and files served outside src/http: their method names,
 * and their responses, which are HTML, PDF, JavaScript or pre-serialized JSON that no response
 * schema serializes. Keyed by `METHOD /openapi/path`; what a route declares itself wins.
 */

interface MediaDoc {
  /** Absent: the route's own schema stands, and only the example is added. */
  schema?: object;
  example?: unknown;
  examples?: Record<string, { summary?: string; value: unknown }>;
}
export interface ResponseDoc {
  description: string;
  content?: Record<string, MediaDoc>;
}
export interface RouteDoc {
  operationId: string;
  responses?: Record<string, ResponseDoc>;
}

const NOT_MODIFIED: ResponseDoc = { description: NOT_MODIFIED_SCHEMA.description };

const json = (schema: object): ResponseDoc => {
  const { description, examples } = schema as { description?: string; examples?: unknown[] };
  return {
    description: description ?? 'OK',
    content: { 'application/json': { schema: strip(schema), example: examples?.[0] } },
  };
};

/** A schema as plain JSON, without its examples (they move to the media object). */
function strip(schema: object): object {
  const { examples: _examples, ...rest } = JSON.parse(JSON.stringify(schema));
  return rest;
}

const page = (description: string): MediaDoc => ({
  schema: { type: 'string', description },
  example: '<!doctype html>\n<html lang="en">…</html>',
});

const notFound = errorResponses(['not_found'])[404];
/** A page for a browser; a problem for a client that asked for JSON. */
const notFoundPage: ResponseDoc = {
  description: notFound.description,
  content: { 'text/html': page('A page that says the id is unknown'), ...notFound.content },
};

export const ROUTE_DOCS: Record<string, RouteDoc> = {
  'GET /verify/{certificate_id}': {
    operationId: 'getCertificate',
    responses: {
      '200': {
        description:
          'The verification page (HTML, works without JavaScript), the certificate (`.json` or `Accept: application/json`), or its PDF (`.pdf`)',
        content: {
          'text/html': page('The verification page'),
          ...json(CertificateSchema).content,
          'application/pdf': { schema: { type: 'string', format: 'binary' }, example: '%PDF-1.7 …' },
        },
      },
      '304': NOT_MODIFIED,
      '404': notFoundPage,
    },
  },
  'GET /g/{public_id}': {
    operationId: 'getPublicGiveaway',
    responses: {
      '200': {
        description:
          'The public page (HTML, works without JavaScript), or the public giveaway (`.json` or `Accept: application/json`)',
        content: {
          'text/html': page("The giveaway's public page"),
          ...json(PublicGiveawaySchema).content,
        },
      },
      '404': notFoundPage,
    },
  },
  'GET /g/{public_id}/proof/{leaf_hash}': {
    operationId: 'getEntrantInclusionProof',
    responses: {
      '200': json(InclusionProofSchema),
      '304': NOT_MODIFIED,
      ...errorResponses(['not_found', 'not_sealed']),
    },
  },
  'GET /g/{public_id}/ticket/{leaf_hash}': {
    operationId: 'getEntrantTicket',
    responses: { '200': json(PublicTicketSchema), '304': NOT_MODIFIED, ...errorResponses(['not_found']) },
  },
  'GET /g/{public_id}/receipt': {
    operationId: 'getReceiptPage',
    responses: {
      '200': {
        description: 'The receipt page; it reads the entrant from the URL fragment',
        content: { 'text/html': page('The receipt page') },
      },
      '404': notFoundPage,
    },
  },
  'GET /o/{owner}': {
    operationId: 'getOrganizerRecord',
    responses: {
      '200': {
        description:
          "The organizer's record page (HTML, works without JavaScript), or the record (`.json` or `Accept: application/json`)",
        content: {
          'text/html': page("The organizer's record"),
          ...json(OrganizerRecordSchema).content,
        },
      },
      '304': NOT_MODIFIED,
      '404': notFoundPage,
    },
  },
  'GET /tyche-verify.mjs': {
    operationId: 'getStandaloneVerifier',
    responses: {
      '200': {
        description: 'The standalone verifier, one ES module',
        content: {
          'text/javascript': {
            schema: Type.String(),
            example: `#!/usr/bin/env node\n// tyche-verify: checks a Tyche draw or receipt; served by ${EXAMPLE_BASE_URL}\n…`,
          },
        },
      },
      '304': NOT_MODIFIED,
    },
  },
};
