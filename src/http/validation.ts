import { Ajv, type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { AppError, type ErrorItem } from '../errors.ts';

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
}

const ajv = new Ajv({
  allErrors: true,
  strict: false,
  coerceTypes: false,
  useDefaults: true,
  removeAdditional: false,
});
addFormats.default(ajv);

const PLAIN_INTEGER = /^-?[0-9]+$/;

/**
 * Validation with the contract's 400/422 split. Query strings are converted here rather than
 * by Ajv's coercion, which would accept "1e3" or "1.0" as integers: only plain decimal
 * integers and the words true/false are converted, anything else stays a string and fails
 * its type check (422). Type errors win over every other problem, then missing values, then
 * range problems.
 */
export const validatorCompiler: FastifySchemaCompiler<JsonSchema> = ({ schema, httpPart }) => {
  const validate = ajv.compile(schema);
  return (input: unknown) => {
    let data = input;
    if (httpPart === 'querystring') data = convertQuery(schema, input as Record<string, unknown>);
    if (httpPart === 'body' && (data === undefined || data === null) && schema.type === 'object') data = {};
    const unsafe = unsafeIntegers(schema, data, '');
    if (unsafe.length > 0) return { error: classify([], unsafe) };
    if (validate(data)) return { value: data };
    return { error: classify(validate.errors ?? [], []) };
  };
};

function convertQuery(schema: JsonSchema, query: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...query };
  for (const [name, prop] of Object.entries(schema.properties ?? {})) {
    const value = out[name];
    if (typeof value !== 'string') continue;
    if (prop.type === 'integer' && PLAIN_INTEGER.test(value)) {
      const number = Number(value);
      if (Number.isSafeInteger(number)) out[name] = number;
    } else if (prop.type === 'boolean' && (value === 'true' || value === 'false')) {
      out[name] = value === 'true';
    }
  }
  return out;
}

/** Integers beyond ±(2^53−1) lose precision in JSON; the contract calls them a type error. */
function unsafeIntegers(schema: JsonSchema, data: unknown, path: string): ErrorItem[] {
  if (
    schema.type === 'integer' &&
    typeof data === 'number' &&
    Number.isInteger(data) &&
    !Number.isSafeInteger(data)
  ) {
    return [{ parameter: path || 'value', message: 'must be an integer between -(2^53-1) and 2^53-1' }];
  }
  if (schema.properties && data && typeof data === 'object' && !Array.isArray(data)) {
    return Object.entries(schema.properties).flatMap(([name, prop]) =>
      unsafeIntegers(prop, (data as Record<string, unknown>)[name], join(path, name)),
    );
  }
  if (schema.items && Array.isArray(data)) {
    return data.flatMap((item, index) => unsafeIntegers(schema.items!, item, join(path, String(index))));
  }
  return [];
}

function join(path: string, name: string): string {
  return path ? `${path}.${name}` : name;
}

function classify(errors: ErrorObject[], unsafe: ErrorItem[]): AppError {
  const typeErrors = [...unsafe, ...errors.filter((e) => e.keyword === 'type').map(toItem)];
  if (typeErrors.length > 0) return problem('invalid_type', typeErrors);
  const missing = errors.filter((e) => e.keyword === 'required').map(toItem);
  if (missing.length > 0) return problem('missing_parameter', missing);
  return problem('invalid_parameter', errors.map(toItem));
}

function problem(
  code: 'invalid_type' | 'missing_parameter' | 'invalid_parameter',
  items: ErrorItem[],
): AppError {
  const unique = items.filter((item, i) => items.findIndex((o) => o.parameter === item.parameter) === i);
  const detail = unique.map((item) => `${item.parameter} ${item.message}`).join('; ');
  return new AppError(code, detail, { errors: unique });
}

function toItem(error: ErrorObject): ErrorItem {
  const base = error.instancePath.replace(/^\//, '').replaceAll('/', '.');
  if (error.keyword === 'required') {
    const name = join(base, String(error.params.missingProperty));
    return { parameter: name, message: 'is required' };
  }
  if (error.keyword === 'additionalProperties') {
    const name = join(base, String(error.params.additionalProperty));
    return { parameter: name, message: 'is not a known field' };
  }
  if (error.keyword === 'type') {
    return { parameter: base || 'body', message: `must be ${article(String(error.params.type))}` };
  }
  return { parameter: base || 'body', message: error.message ?? 'is invalid' };
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}
