import { Ajv, type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { AppError, type ErrorItem } from '../shared/errors.ts';
import { controlCharacterMessage, hasControlCharacters } from '../shared/text-rules.ts';
import { isPlainIntegerToken } from './json-body.ts';
import { TEXT_FORMATS } from './schemas.ts';

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
}

const ajv = new Ajv({
  allErrors: true,
  strict: false,
  // Infinity and NaN are not numbers of any JSON type.
  strictNumbers: true,
  coerceTypes: false,
  useDefaults: true,
  removeAdditional: false,
});
addFormats.default(ajv);
for (const [format, { kind, trimmed }] of Object.entries(TEXT_FORMATS)) {
  const validate = (text: string) => !hasControlCharacters(trimmed ? text.trim() : text, kind);
  ajv.addFormat(format, { type: 'string', validate });
}

const PLAIN_INTEGER = /^-?[0-9]+$/;
const INTEGER_MESSAGE = 'must be a plain decimal integer between -(2^53-1) and 2^53-1';

/**
 * Validation with the contract's 400/422 split. Query strings are converted here rather than
 * by Ajv's coercion, which would accept "1e3" or "1.0" as integers: only plain decimal
 * integers and the words true/false are converted, anything else stays a string and fails
 * its type check (422). In JSON bodies every integer field is judged on its raw token in the
 * same way (see json-body.ts). Type errors win over every other problem, then missing values,
 * then range problems.
 */
export const validatorCompiler = validatorCompilerWith((compile) => {
  const compiled = compile();
  return () => compiled;
});

/** Puts a compile off until the compiled function is first wanted (see schema-compilers.ts). */
export type Defer = <T>(compile: () => T) => () => T;

/** The validator compiler above, with Ajv's compile of each schema put off by `defer`. */
export function validatorCompilerWith(defer: Defer): FastifySchemaCompiler<JsonSchema> {
  return ({ schema, httpPart }) => {
    const compiled = defer(() => ajv.compile(schema));
    return (input: unknown) => {
      const validate = compiled();
      let data = input;
      if (httpPart === 'querystring') data = convertQuery(schema, input as Record<string, unknown>);
      if (httpPart === 'body' && (data === undefined || data === null) && schema.type === 'object') data = {};
      const notIntegers = badIntegers(schema, data, '', true);
      if (notIntegers.length > 0) return { error: classify([], notIntegers) };
      if (validate(data)) return { value: data };
      return { error: classify(validate.errors ?? [], []) };
    };
  };
}

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

/**
 * Integer fields whose value is not a safe integer written as plain decimal: `1.0`, `1e3` and
 * `1e400` (Infinity) parse to numbers Ajv would take as integers, and integers beyond
 * ±(2^53−1) lose precision in JSON. The contract calls all of them a type error.
 */
function badIntegers(schema: JsonSchema, value: unknown, path: string, plainToken: boolean): ErrorItem[] {
  const found: ErrorItem[] = [];
  if (typeof value === 'number' && expectsInteger(schema) && !(plainToken && Number.isSafeInteger(value))) {
    found.push({ parameter: path || 'value', message: INTEGER_MESSAGE });
  }
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    if (schema.properties && !Array.isArray(value)) {
      for (const [name, property] of Object.entries(schema.properties)) {
        if (!Object.hasOwn(record, name)) continue;
        found.push(
          ...badIntegers(property, record[name], join(path, name), isPlainIntegerToken(record, name)),
        );
      }
    }
    if (schema.items && Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        found.push(
          ...badIntegers(schema.items, value[i], `${path}[${i}]`, isPlainIntegerToken(value, String(i))),
        );
      }
    }
  }
  for (const branch of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])]) {
    found.push(...badIntegers(branch, value, path, plainToken));
  }
  return found;
}

function expectsInteger(schema: JsonSchema): boolean {
  return Array.isArray(schema.type) ? schema.type.includes('integer') : schema.type === 'integer';
}

function join(path: string, name: string): string {
  return path ? `${path}.${name}` : name;
}

function classify(errors: ErrorObject[], notIntegers: ErrorItem[]): AppError {
  const typeErrors = [...notIntegers, ...errors.filter((e) => e.keyword === 'type').map(toItem)];
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
  const base = parameterOf(error.instancePath);
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
  if (error.keyword === 'format' && Object.hasOwn(TEXT_FORMATS, error.params.format)) {
    const { kind } = TEXT_FORMATS[error.params.format as keyof typeof TEXT_FORMATS];
    return { parameter: base || 'body', message: controlCharacterMessage(kind) };
  }
  return { parameter: base || 'body', message: error.message ?? 'is invalid' };
}

/** `/participants/0/telegram_id` → `participants[0].telegram_id`, as badIntegers names it. */
function parameterOf(instancePath: string): string {
  let path = '';
  for (const raw of instancePath.split('/').slice(1)) {
    const segment = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    path = /^[0-9]+$/.test(segment) ? `${path}[${segment}]` : join(path, segment);
  }
  return path;
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}
