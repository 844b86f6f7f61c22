/**
 * JSON bodies with memory of how their numbers were written. JSON.parse turns `1.0`, `1e0` and
 * `1e15` into integers and `1e400` into Infinity, so the parsed value cannot tell whether an
 * integer field held the contract's plain decimal integer. The reviver sees each number's raw
 * token and records the ones that were not, by holder object and key, for the validator.
 */
const PLAIN_INTEGER = /^-?[0-9]+$/;
// A token with a fraction or an exponent has a digit right before its `.`, `e` or `E`.
const MAYBE_NOT_PLAIN = /[0-9][.eE]/;

const notPlain = new WeakMap<object, Set<string>>();

function remember(this: object, key: string, value: unknown, context?: { source?: string }): unknown {
  if (typeof value === 'number' && !PLAIN_INTEGER.test(context?.source ?? '')) {
    let keys = notPlain.get(this);
    if (!keys) {
      keys = new Set();
      notPlain.set(this, keys);
    }
    keys.add(key);
  }
  return value;
}

/** Deeper than any request body needs; far below what recursive code downstream survives. */
export const MAX_JSON_DEPTH = 32;

export class TooDeep extends Error {
  override name = 'TooDeep';
}

/**
 * The deepest nesting of arrays and objects in JSON text, counted outside strings, stopping as
 * soon as it passes `limit`: a 10 KB body of 5 000 brackets must be refused before the parser,
 * the validator or the handler recurse into it.
 */
function exceedsDepth(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      if (++depth > limit) return true;
    } else if (c === 93 || c === 125) depth--;
  }
  return false;
}

/**
 * Throws JSON.parse's SyntaxError on bad JSON, TooDeep past MAX_JSON_DEPTH. A reviver makes
 * parsing several times slower, so text in which no number can have a fraction or an exponent
 * is parsed without one.
 */
export function parseJsonBody(text: string): unknown {
  if (exceedsDepth(text, MAX_JSON_DEPTH)) {
    throw new TooDeep(`arrays and objects are nested deeper than ${MAX_JSON_DEPTH} levels`);
  }
  if (!MAYBE_NOT_PLAIN.test(text)) return JSON.parse(text);
  return JSON.parse(text, remember as (key: string, value: unknown) => unknown);
}

/**
 * Whether `holder[key]`, if it is a number, was written as a plain decimal integer. Values that
 * did not come through parseJsonBody (query strings, defaults) count as plain.
 */
export function isPlainIntegerToken(holder: object, key: string): boolean {
  return notPlain.get(holder)?.has(key) !== true;
}
