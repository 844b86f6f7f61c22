import { readFileSync } from 'node:fs';
import { createLogAuditor } from '../log/log-audit.ts';
import { readPin, writePin } from '../log/log-pin.ts';
import { type Checkpoint, openCheckpoint } from '../proof/checkpoint.ts';
import { bytesEqual, fromBase64 } from '../proof/hex.ts';
import { KEYS_PATH } from '../proof/keys-path.ts';
import { parseVerifierKey } from '../proof/note.ts';
import { isRecord } from '../proof/report.ts';
import { CannotCheck, EXIT_CANNOT_CHECK, fetchJson } from '../verify/verify-inputs.ts';
import { type Command, type Io, UsageError } from './command.ts';

const PAGE = 1000;
const IN_FLIGHT = 4;

interface Outcome {
  ok: boolean;
  lines: string[];
}

async function fetchText(url: string, what: string): Promise<string> {
  let res: Response;
  try {
    res = await fetch(url, { signal: AbortSignal.timeout(30_000) });
  } catch (error) {
    throw new CannotCheck(`cannot reach ${url}: ${(error as Error).message}`);
  }
  if (!res.ok) throw new CannotCheck(`${url} answered ${res.status} for the ${what}`);
  return res.text();
}

/** The server's base for a log URL (`…/log`) or the server's own URL. */
function serverOf(url: string): string {
  if (!/^https?:\/\//i.test(url)) throw new UsageError(`${JSON.stringify(url)} is not an http(s) URL`);
  return url.replace(/\/+$/, '').replace(/\/log$/, '');
}

/** The pinned log key, or the one given, or (first use only) the one the server publishes. */
async function logKeyFor(
  server: string,
  given: string | undefined,
  io: Io,
): Promise<{ key: string; origin: string; firstUse: boolean }> {
  const { json } = await fetchJson(`${server}${KEYS_PATH}`, 'keys document');
  const published = isRecord(json) && isRecord(json.log) ? json.log : {};
  const origin = typeof published.origin === 'string' ? published.origin : '';
  const pinned = readPin(io.env, origin);
  const key = given ?? pinned?.log_key ?? (typeof published.key === 'string' ? published.key : '');
  if (!key) throw new CannotCheck(`${server}${KEYS_PATH} names no log key; pass --log-key`);
  try {
    const parsed = parseVerifierKey(key);
    if (given && pinned && pinned.log_key !== given) {
      throw new CannotCheck(
        `--log-key differs from the key pinned for ${parsed.name}; remove the pin to change it`,
      );
    }
    return { key, origin: parsed.name, firstUse: !given && !pinned };
  } catch (error) {
    if (error instanceof CannotCheck) throw error;
    throw new UsageError(`the log key: ${(error as Error).message}`);
  }
}

async function downloadInto(
  server: string,
  size: number,
  auditor: ReturnType<typeof createLogAuditor>,
  progress: (done: number) => void,
): Promise<void> {
  const pages = Math.ceil(size / PAGE);
  const pending = new Map<number, Promise<unknown>>();
  const load = (page: number) =>
    fetchJson(
      `${server}/log/entries?start=${page * PAGE}&end=${Math.min(size, (page + 1) * PAGE)}`,
      'log entries',
    ).then((r) => r.json);
  for (let page = 0; page < pages; page++) {
    for (let ahead = page; ahead < Math.min(pages, page + IN_FLIGHT); ahead++) {
      if (!pending.has(ahead)) pending.set(ahead, load(ahead));
    }
    const json = await pending.get(page)!;
    pending.delete(page);
    const entries = isRecord(json) && Array.isArray(json.entries) ? json.entries : [];
    const expected = Math.min(size, (page + 1) * PAGE) - page * PAGE;
    if (entries.length !== expected) {
      throw new CannotCheck(`the log served ${entries.length} entries from ${page * PAGE}, not ${expected}`);
    }
    for (const e of entries) {
      const leafData = isRecord(e) && typeof e.leaf_data === 'string' ? fromBase64(e.leaf_data) : null;
      auditor.add({
        index: isRecord(e) ? Number(e.index) : -1,
        kind: isRecord(e) ? String(e.kind) : '',
        id: isRecord(e) ? String(e.id) : '',
        leafData: leafData ?? new Uint8Array(0),
      });
    }
    progress(auditor.size());
  }
}

/** An older checkpoint (the pinned one, or --since) against the entries just rebuilt. */
function consistent(
  older: Checkpoint,
  newer: Checkpoint,
  auditor: ReturnType<typeof createLogAuditor>,
): string | null {
  if (older.size > newer.size)
    return `the log shrank from ${older.size} entries to ${newer.size}: a rollback`;
  if (!bytesEqual(auditor.rootAt(older.size), older.root)) {
    return `the first ${older.size} entries do not hash to the root of the checkpoint of size ${older.size}: the log was rewritten`;
  }
  return null;
}

export async function auditLog(
  url: string,
  options: { since?: string; logKey?: string },
  io: Io,
): Promise<Outcome> {
  const server = serverOf(url);
  const lines: string[] = [];
  let ok = true;
  const say = (pass: boolean, line: string) => {
    ok &&= pass;
    lines.push(`${pass ? '✓' : '✗'} ${line}`);
  };
  const { key, origin, firstUse } = await logKeyFor(server, options.logKey, io);
  const note = await fetchText(`${server}/log/checkpoint`, 'checkpoint');
  const opened = openCheckpoint(note, key);
  if (!opened.ok) {
    say(false, `Checkpoint: ${opened.problem}`);
    return { ok, lines };
  }
  const { checkpoint } = opened;
  say(
    true,
    `Checkpoint: ${origin} at size ${checkpoint.size}, signed by the ${firstUse ? 'log key (pinned now, on first use)' : 'pinned log key'}`,
  );

  const auditor = createLogAuditor(parseVerifierKey(key).publicKey);
  let last = 0;
  await downloadInto(server, checkpoint.size, auditor, (done) => {
    if (done - last >= 10_000 || done === checkpoint.size) {
      io.err(`entries ${done}/${checkpoint.size}`);
      last = done;
    }
  });
  say(
    bytesEqual(auditor.rootAt(checkpoint.size), checkpoint.root),
    `Tree: the ${checkpoint.size} entries hash to the checkpoint's root`,
  );

  const findings = auditor.findings();
  const entries = findings.filter((f) => f.severity === 'entry');
  say(
    entries.length === 0,
    entries.length === 0
      ? 'Entries: every entry is canonical, of its kind, and signed by a key announced before it'
      : `Entries: ${entries.length} broken, the first at index ${entries[0].index}: ${entries[0].message}`,
  );
  for (const f of entries.slice(1, 20)) lines.push(`    entry ${f.index}: ${f.message}`);
  const monitor = findings.filter((f) => f.severity === 'monitor');
  say(
    monitor.length === 0,
    monitor.length === 0
      ? 'Monitoring: no giveaway sealed twice, no owner sealing twice on one round'
      : `Monitoring: ${monitor.length} findings`,
  );
  for (const f of monitor) lines.push(`    ${f.message}`);

  const pin = readPin(io.env, origin);
  const olders: [string, string][] = [];
  if (pin?.checkpoint) olders.push(['the newest checkpoint seen before', pin.checkpoint]);
  if (options.since) olders.push([options.since, readSince(options.since)]);
  let newest = checkpoint;
  for (const [what, text] of olders) {
    const older = openCheckpoint(text, key);
    if (!older.ok) {
      say(false, `Consistency with ${what}: ${older.problem}`);
      continue;
    }
    const problem = consistent(older.checkpoint, checkpoint, auditor);
    say(
      problem === null,
      `Consistency with ${what} (size ${older.checkpoint.size}): ${problem ?? 'the log only grew'}`,
    );
    if (older.checkpoint.size > newest.size) newest = older.checkpoint;
  }
  if (ok) writePin(io.env, { origin, log_key: key, checkpoint: note });
  return { ok, lines };
}

function readSince(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new CannotCheck(`cannot read --since ${file}: ${(error as Error).message}`);
  }
}

export const logVerify: Command = {
  name: 'log verify',
  usage: 'log verify LOG_URL [--since CHECKPOINT_FILE] [--log-key VKEY] [--json]',
  summary: `Re-check a transparency log (CONTRACT §8): LOG_URL is the log (…/log) or the server's URL.
Downloads every entry (progress on stderr), rebuilds the tree and compares it with the signed checkpoint,
checks each entry's kind, canonical form, hash and signature by a key the log announced before it and did
not retire, and each key entry's signature by the log key. Reports every giveaway with more than one seal
and every owner with more than one seal on the same drand round. The log key is pinned on first use under
$XDG_STATE_HOME/tyche (or ~/.local/state/tyche) with the newest checkpoint, which the next run must be
consistent with; --log-key pins it explicitly; --since also checks a checkpoint saved earlier (a file).
Exit status: 0 all hold, 1 a check failed or monitoring found something, 2 usage, 3 the log could not be read.`,
  options: { since: { type: 'string' }, 'log-key': { type: 'string' }, json: { type: 'boolean' } },
  async run({ values, positionals }, io) {
    if (positionals.length !== 1) throw new UsageError('give exactly one LOG_URL');
    try {
      const outcome = await auditLog(
        positionals[0],
        { since: values.since as string | undefined, logKey: values['log-key'] as string | undefined },
        io,
      );
      if (values.json) io.out(JSON.stringify({ valid: outcome.ok, lines: outcome.lines }));
      else for (const line of outcome.lines) io.out(line);
      if (!values.json) io.out(outcome.ok ? 'VALID: the log holds' : 'INVALID: see the ✗ lines above');
      return outcome.ok ? 0 : 1;
    } catch (error) {
      if (!(error instanceof CannotCheck)) throw error;
      io.err(`tyche log verify: ${error.message}`);
      return EXIT_CANNOT_CHECK;
    }
  },
};
