/** What a list just entered costs to read back: the CSV export and the seal, HTTP end to end. */

/** The participants CSV read to its end as a client would: rows, bytes and seconds. */
export async function exportCsv(url: string, key: string, publicId: string) {
  const started = performance.now();
  const res = await fetch(`${url}/api/v1/giveaways/${publicId}/participants.csv`, {
    headers: { authorization: `Bearer ${key}` },
  });
  if (res.status !== 200 || !res.body) throw new Error(`the CSV export answered ${res.status}`);
  let bytes = 0;
  let lines = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.length;
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
  }
  return { seconds: (performance.now() - started) / 1000, bytes, rows: lines - 1 };
}

/** The seal of a verifiable giveaway, request sent → answer read; the count it sealed. */
export async function seal(url: string, key: string, publicId: string) {
  const started = performance.now();
  const res = await fetch(`${url}/api/v1/giveaways/${publicId}/seal`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: '{}',
  });
  const answer = (await res.json()) as { seal?: { entrants: { count: number } } };
  if (res.status !== 200 || !answer.seal)
    throw new Error(`the seal answered ${res.status}: ${JSON.stringify(answer)}`);
  return { seconds: (performance.now() - started) / 1000, count: answer.seal.entrants.count };
}
