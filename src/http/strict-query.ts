import type { RouteOptions } from 'fastify';
import { Type } from 'typebox';

/**
 * An onRoute hook: a query parameter the route does not know is refused with 400
 * `invalid_parameter` naming it, as an unknown body field is, so a misspelt `cuont=5` is not
 * silently ignored. A route without query parameters accepts none.
 */
export function refuseUnknownQuery(route: RouteOptions) {
  if (!route.schema || route.schema.hide) return;
  const query = route.schema.querystring as { additionalProperties?: unknown } | undefined;
  if (query === undefined) {
    route.schema.querystring = Type.Object({}, { additionalProperties: false });
  } else if (query.additionalProperties === undefined) {
    route.schema.querystring = { ...query, additionalProperties: false };
  }
}
