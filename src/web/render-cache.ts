import { etagOf } from '../edge/etag.ts';
import { createKeptResults } from '../shared/kept-results.ts';

/** A rendered answer, with the validator that lets a client revalidate it for free. */
export interface Rendered {
  body: Buffer;
  etag: string;
}

/**
 * Answers that never change once made (a certificate's PDF and JSON) rendered once per process,
 * so a burst of anonymous clients costs one PDF, not one each.
 */
export function createRenderCache(max: number) {
  const kept = createKeptResults<Rendered>(max);
  return {
    get(key: string, render: () => Promise<Buffer | string>): Promise<Rendered> {
      return kept.get(key, () =>
        render().then((out) => {
          const body = typeof out === 'string' ? Buffer.from(out) : out;
          return { body, etag: etagOf(body) };
        }),
      );
    },
  };
}
