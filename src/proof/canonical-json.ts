// RFC 8785 JSON Canonicalization Scheme, pure and import-free: the pages' bundled scripts run it
// as the server does. ECMAScript's own JSON.stringify already produces RFC 8785's number and string
// forms; what remains is sorting keys by UTF-16 code units and refusing what I-JSON forbids.

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function canonicalJson(value: unknown): string {
  return serialize(value, new Set(), '$');
}

export function canonicalJsonBytes(value: unknown): Uint8Array {
  return new TextEncoder().encode(canonicalJson(value));
}

function fail(path: string, reason: string): never {
  throw new TypeError(`cannot canonicalize ${path}: ${reason}`);
}

function serialize(value: unknown, ancestors: Set<object>, path: string): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) fail(path, 'only finite numbers are JSON');
      return JSON.stringify(value);
    case 'string':
      if (LONE_SURROGATE.test(value)) fail(path, 'a string with a lone surrogate is not I-JSON');
      return JSON.stringify(value);
    case 'object':
      return serializeObject(value, ancestors, path);
    default:
      return fail(path, `${typeof value} is not a JSON value`);
  }
}

function serializeObject(value: object, ancestors: Set<object>, path: string): string {
  const withToJson = value as { toJSON?: () => unknown };
  // Follows JSON.stringify (e.g. Date → ISO string), so canonical form = canonical(JSON round trip).
  if (typeof withToJson.toJSON === 'function') return serialize(withToJson.toJSON(), ancestors, path);
  if (ancestors.has(value)) fail(path, 'circular structure');
  ancestors.add(value);
  let out: string;
  if (Array.isArray(value)) {
    const parts: string[] = [];
    for (let i = 0; i < value.length; i++) parts.push(serialize(value[i], ancestors, `${path}[${i}]`));
    out = `[${parts.join(',')}]`;
  } else {
    const record = value as Record<string, unknown>;
    // Default sort compares UTF-16 code units, which is exactly RFC 8785 §3.2.3.
    const keys = Object.keys(record).sort();
    const parts: string[] = [];
    for (const key of keys) {
      const member = record[key];
      // Absent and undefined are the same thing to JSON.stringify; optional fields rely on it.
      if (member === undefined) continue;
      if (LONE_SURROGATE.test(key)) fail(path, 'a key with a lone surrogate is not I-JSON');
      parts.push(`${JSON.stringify(key)}:${serialize(member, ancestors, `${path}.${key}`)}`);
    }
    out = `{${parts.join(',')}}`;
  }
  ancestors.delete(value);
  return out;
}
