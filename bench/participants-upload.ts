import { readFileSync, writeFileSync } from 'node:fs';
import { rssOf } from './giveaways-setup.ts';

/** Participant i: distinct ids in no particular order, a comma and quotes in every tenth name. */
export function participant(i: number) {
  const telegramId = Number((BigInt(i) * 2654435761n) % 2n ** 32n) || 2 ** 32;
  return {
    telegram_id: telegramId,
    username: `user_${i}`,
    first_name: i % 10 === 0 ? `Name, "${i}"` : `Name ${i}`,
  };
}

/** Lines made per read of the body while it is sent. */
const LINES_PER_CHUNK = 10_000;

const cell = (text: string) => (/[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text);

/** `total` participants as one CSV, made as it is sent: the client never holds it whole either. */
function csvBody(total: number): { stream: ReadableStream<Uint8Array>; bytes: () => number } {
  const encoder = new TextEncoder();
  let from = 1;
  let bytes = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      const lines = from === 1 ? ['telegram_id,username,first_name'] : [];
      const to = Math.min(from + LINES_PER_CHUNK, total + 1);
      for (let i = from; i < to; i++) {
        const p = participant(i);
        lines.push(`${p.telegram_id},${p.username},${cell(p.first_name)}`);
      }
      from = to;
      const chunk = encoder.encode(`${lines.join('\r\n')}\r\n`);
      bytes += chunk.length;
      controller.enqueue(chunk);
      if (from > total) controller.close();
    },
  });
  return { stream, bytes: () => bytes };
}

/** Linux lets the peak RSS (VmHWM) of a process be reset by writing 5 to its clear_refs. */
function peakOf(pid: number, reset = false): number {
  try {
    if (reset) writeFileSync(`/proc/${pid}/clear_refs`, '5');
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/** One streamed CSV upload of `total` participants, with the server's RSS before and at its peak. */
export async function csvUpload(url: string, key: string, pid: number, total: number) {
  const before = rssOf(pid);
  peakOf(pid, true);
  let sampled = before;
  const sampler = setInterval(() => {
    sampled = Math.max(sampled, rssOf(pid));
  }, 20);
  const body = csvBody(total);
  const started = performance.now();
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'text/csv' },
      body: body.stream,
      duplex: 'half',
    } as RequestInit);
    const answer = await res.text();
    if (res.status !== 200) throw new Error(`upload answered ${res.status}: ${answer}`);
    const seconds = (performance.now() - started) / 1000;
    const peak = Math.max(sampled, peakOf(pid) || 0);
    return { seconds, bytes: body.bytes(), before, peak, answer: JSON.parse(answer) as { added: number } };
  } finally {
    clearInterval(sampler);
  }
}
