/**
 * Typed callback data for inline buttons: `prefix:value:value…`, packed from and unpacked to
 * named fields, with one pattern per kind for grammY's `callbackQuery` filter. Telegram allows
 * 64 bytes; a value may not hold the separator.
 */
export function callbackData<const F extends readonly string[]>(prefix: string, fields: F) {
  type Values = { [K in F[number]]: string };
  const filter = new RegExp(`^${prefix}${fields.map(() => ':([^:]*)').join('')}$`);
  return {
    filter,
    pack(values: Values): string {
      const parts = fields.map((f) => values[f as F[number]]);
      if (parts.some((p) => p.includes(':'))) throw new Error(`callback value holds ':' (${prefix})`);
      const data = [prefix, ...parts].join(':');
      if (Buffer.byteLength(data) > 64) throw new Error(`callback data over 64 bytes (${prefix})`);
      return data;
    },
    unpack(data: string | undefined): Values | undefined {
      const match = data === undefined ? null : filter.exec(data);
      if (!match) return undefined;
      return Object.fromEntries(fields.map((f, i) => [f, match[i + 1]])) as Values;
    },
  };
}
