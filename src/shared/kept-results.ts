/**
 * Results that never change for their key, made once per process and kept, most recently used
 * first, up to `max` entries. Concurrent requests for the same key share one making; a failed
 * one is not kept, so the next request tries again.
 */
export function createKeptResults<T>(max: number) {
  const entries = new Map<string, Promise<T>>();
  return {
    get(key: string, make: () => Promise<T>): Promise<T> {
      const hit = entries.get(key);
      if (hit) {
        entries.delete(key);
        entries.set(key, hit);
        return hit;
      }
      const made = make();
      made.catch(() => entries.delete(key));
      entries.set(key, made);
      if (entries.size > max) entries.delete(entries.keys().next().value as string);
      return made;
    },
  };
}
