import { etagOf } from '../edge/etag.ts';

/** A rendered answer, with the validator that lets a client revalidate it for free. */
export interface Rendered {
  body: Buffer;
  etag: string;
}

/**
 * Answers that never change once made (a certificate's PDF and JSON) rendered once per process
 * and kept, most recently used first, up to `max` entries. Concurrent requests for the same key
 * share one rendering, so a burst of anonymous clients costs one PDF, not one each.
 */
export function createRenderCache(max: number) {
  const entries = new Map<string, Promise<Rendered>>();
  return {
    get(key: string, render: () => Promise<Buffer | string>): Promise<Rendered> {
      const hit = entries.get(key);
      if (hit) {
        entries.delete(key);
        entries.set(key, hit);
        return hit;
      }
      const made = render().then((out) => {
        const body = typeof out === 'string' ? Buffer.from(out) : out;
        return { body, etag: etagOf(body) };
      });
      // A failed rendering is not kept: the next request tries again.
      made.catch(() => entries.delete(key));
      entries.set(key, made);
      if (entries.size > max) entries.delete(entries.keys().next().value as string);
      return made;
    },
  };
}
