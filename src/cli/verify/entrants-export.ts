// The owner's entrants export as a verifier reads it (CONTRACT §3, GET …/entrants): what the
// entrants root is rebuilt from. Pure, so tyche verify and tyche-verify.mjs read it alike.

export interface ExportedEntrant {
  telegram_id: number;
  salt: string;
}

const SALT = /^[0-9a-fA-F]{32}$/;

/**
 * The top-level JSON values of `text`, one after the other: pages of the API export written to
 * one file (`curl … >> entrants.json` per page) are read as the concatenation they are.
 */
export function jsonDocuments(text: string): unknown[] {
  const docs: unknown[] = [];
  let start = -1;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{' || c === '[') {
      if (depth === 0) start = i;
      depth++;
    } else if (c === '}' || c === ']') {
      depth--;
      if (depth < 0) throw new SyntaxError(`unexpected ${JSON.stringify(c)} at character ${i + 1}`);
      if (depth === 0) docs.push(JSON.parse(text.slice(start, i + 1)));
    } else if (depth === 0 && !/\s/.test(c) && !(i === 0 && c === '\ufeff')) {
      throw new SyntaxError(`unexpected ${JSON.stringify(c)} at character ${i + 1}: expected { or [`);
    }
  }
  if (depth !== 0 || inString) throw new SyntaxError('the JSON ends in the middle of a value');
  return docs;
}

function entrantOf(value: unknown, at: string): ExportedEntrant {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new SyntaxError(`${at} is not an object`);
  }
  const { telegram_id: id, salt } = value as Record<string, unknown>;
  if (!Number.isSafeInteger(id) || (id as number) < 1)
    throw new SyntaxError(`${at}.telegram_id is not a positive integer`);
  if (typeof salt !== 'string' || !SALT.test(salt))
    throw new SyntaxError(`${at}.salt is not 16 bytes of hex`);
  return { telegram_id: id as number, salt: salt.toLowerCase() };
}

/**
 * `{"entrants": [{telegram_id, salt, …}], …}` or a bare array of entrants, or several of either
 * one after the other. Fields other than telegram_id and salt are not needed and not read.
 */
export function parseEntrantsExport(text: string): ExportedEntrant[] {
  const docs = jsonDocuments(text);
  if (docs.length === 0) throw new SyntaxError('the file holds no JSON');
  const entrants: ExportedEntrant[] = [];
  for (const [d, doc] of docs.entries()) {
    const page = docs.length > 1 ? `page ${d + 1}: ` : '';
    const list = Array.isArray(doc)
      ? doc
      : typeof doc === 'object' && doc !== null && Array.isArray((doc as { entrants?: unknown }).entrants)
        ? (doc as { entrants: unknown[] }).entrants
        : undefined;
    if (!list) throw new SyntaxError(`${page}neither {"entrants": […]} nor a list of entrants`);
    for (const [i, value] of list.entries()) entrants.push(entrantOf(value, `${page}entrants[${i}]`));
  }
  return entrants;
}
