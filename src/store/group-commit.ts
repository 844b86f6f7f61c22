/** Items one flush takes at most; the rest wait for the next. */
const MAX_BATCH = 512;

interface Entry<I, R> {
  item: I;
  resolve: (result: R) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit with one batch in flight: the items that arrive while a batch commits wait and go
 * together in the next one, so a burst of requests pays one commit (and one WAL flush) per batch
 * instead of one each, and a process's batches never wait on each other's row locks. (Two
 * batches in flight, each on rows of its own, were measured too: on two shared cores the extra
 * commits cost more CPU than the overlap saved.) `write` commits the items it is given as one (a
 * single statement, or one transaction) and returns one result per item; an item's promise
 * settles only after that commit, so an answer never gets ahead of its write. When a batch
 * fails, its items are written again one by one, so only the item at fault sees the error.
 */
export function createGroupCommit<I, R>(write: (items: I[]) => Promise<R[]>): (item: I) => Promise<R> {
  let pending: Entry<I, R>[] = [];
  let flushing = false;

  async function writeAlone(entry: Entry<I, R>) {
    try {
      const [result] = await write([entry.item]);
      entry.resolve(result);
    } catch (error) {
      entry.reject(error);
    }
  }

  async function flush(batch: Entry<I, R>[]) {
    if (batch.length === 1) return writeAlone(batch[0]);
    let results: R[];
    try {
      results = await write(batch.map((entry) => entry.item));
    } catch {
      for (const entry of batch) await writeAlone(entry);
      return;
    }
    for (const [i, entry] of batch.entries()) entry.resolve(results[i]);
  }

  async function drain() {
    flushing = true;
    try {
      while (pending.length > 0) {
        const batch = pending.slice(0, MAX_BATCH);
        pending = pending.slice(batch.length);
        await flush(batch);
      }
    } finally {
      flushing = false;
    }
  }

  return (item) =>
    new Promise<R>((resolve, reject) => {
      pending.push({ item, resolve, reject });
      // The first item of a quiet moment waits one turn of the event loop for company.
      if (!flushing && pending.length === 1) setImmediate(() => void (flushing || drain()));
    });
}
