import { readFileSync } from 'node:fs';
import { type Checkpoint, openCheckpoint } from '../proof/checkpoint.ts';
import { bytesEqual, fromHex } from '../proof/hex.ts';
import { verifyConsistency } from '../proof/merkle-proofs.ts';
import { parseVerifierKey } from '../proof/note.ts';
import { isRecord } from '../proof/report.ts';
import { ACCOUNT_PSEUDONYM } from '../proof/signed-result.ts';
import { type Command, type Io, UsageError } from './command.ts';
import { type AuditEntry, type AuditFinding, createLogAuditor, type LogAuditor } from './log/log-audit.ts';
import { fetchEntries } from './log/log-audit-fetch.ts';
import { checkTiles, fetchBundles, tileConsistencyProof } from './log/log-audit-tiles.ts';
import { fetchText, logKeyFor, serverOf } from './log/log-source.ts';
import { type LoggedResult, resultLines } from './log/result-tally.ts';
import { readPin, writePin } from './verify/log-pin.ts';
import { nodeSha256 } from './verify/verify-context.ts';
import { CannotCheck, EXIT_CANNOT_CHECK, fetchJson } from './verify/verify-inputs.ts';

interface Outcome {
  ok: boolean;
  lines: string[];
  findings: AuditFinding[];
  /** With --account: that account's signed results, in log order. */
  results?: LoggedResult[];
}

/** Where a consistency proof comes from: the server's /log/proof/consistency, or the tiles themselves. */
interface ProofSource {
  name: string;
  proof(first: number, second: number): Promise<Uint8Array[]>;
}

function serverProofs(server: string): ProofSource {
  return {
    name: "the server's consistency proof",
    async proof(first, second) {
      const url = `${server}/log/proof/consistency?first=${first}&second=${second}`;
      const { json } = await fetchJson(url, 'consistency proof');
      const raw = isRecord(json) && Array.isArray(json.proof) ? json.proof : [];
      try {
        return raw.map((h) => fromHex(String(h)));
      } catch {
        return [new Uint8Array(0)];
      }
    },
  };
}

/**
 * An older checkpoint against the entries just rebuilt: its root must be the root of the first
 * entries. The consistency proof a client would be given (the server's, or the one the tiles
 * give) is checked too, since other verifiers rely on it.
 */
async function consistencyProblem(
  proofs: ProofSource,
  older: Checkpoint,
  newer: Checkpoint,
  auditor: LogAuditor,
): Promise<string | null> {
  if (older.size > newer.size)
    return `the log shrank from ${older.size} entries to ${newer.size}: a rollback`;
  if (!bytesEqual(auditor.rootAt(older.size), older.root)) {
    return `the first ${older.size} entries do not hash to the root of the checkpoint of size ${older.size}: the log was rewritten`;
  }
  if (older.size === 0 || older.size === newer.size) return null;
  const proof = await proofs.proof(older.size, newer.size);
  return verifyConsistency(older.size, newer.size, older.root, newer.root, proof, nodeSha256)
    ? null
    : `the entries hold, but ${proofs.name} from size ${older.size} to ${newer.size} does not verify`;
}

export async function auditLog(
  url: string,
  options: { since?: string; logKey?: string; account?: string; entries?: boolean },
  io: Io,
): Promise<Outcome> {
  const server = serverOf(url);
  const since = options.since === undefined ? undefined : readSince(options.since);
  const lines: string[] = [];
  let ok = true;
  const say = (pass: boolean, line: string) => {
    ok &&= pass;
    lines.push(`${pass ? '✓' : '✗'} ${line}`);
    return pass;
  };
  const note = await fetchText(`${server}/log/checkpoint`, 'checkpoint');
  const logKey = await logKeyFor(server, options.logKey, io, note);
  if ('problem' in logKey) {
    say(false, `Log key: ${logKey.problem}`);
    return { ok, lines, findings: [] };
  }
  const { key, origin } = logKey;
  const opened = openCheckpoint(note, key);
  if (!opened.ok) {
    say(false, `Checkpoint: ${opened.problem}`);
    return { ok, lines, findings: [] };
  }
  const { checkpoint } = opened;
  say(true, `Checkpoint: ${origin} at size ${checkpoint.size}, signed by ${logKey.source}`);

  const auditor = createLogAuditor(parseVerifierKey(key).publicKey);
  let reported = 0;
  const onPage = (entries: AuditEntry[]) => {
    for (const entry of entries) auditor.add(entry);
    const done = auditor.size();
    if (done - reported >= 10_000 || done === checkpoint.size) {
      io.err(`entries ${done}/${checkpoint.size}`);
      reported = done;
    }
  };
  const prefix = `${server}/log`;
  if (options.entries) await fetchEntries(server, checkpoint.size, onPage);
  else await fetchBundles(prefix, checkpoint.size, onPage);
  const rooted = bytesEqual(auditor.rootAt(checkpoint.size), checkpoint.root);
  const structure = say(
    rooted,
    `Tree: the ${checkpoint.size} entries ${rooted ? 'hash' : 'do not hash'} to the checkpoint's root`,
  );
  let proofs = serverProofs(server);
  if (!options.entries) {
    const leaves = auditor.leafHashes(checkpoint.size);
    const tiles = await checkTiles(prefix, checkpoint.size, leaves, nodeSha256);
    const [first] = tiles.problems;
    // Wrong tiles fail the run but say nothing against the checkpoint: the pin may still advance.
    say(
      first === undefined,
      first === undefined
        ? `Tiles: the ${tiles.tiles} hash tiles of size ${checkpoint.size} are the tree's`
        : `Tiles: ${tiles.problems.length} of the ${tiles.tiles} hash tiles are not the tree's, the first: ${first}`,
    );
    proofs = {
      name: 'the consistency proof the tiles give',
      proof: async (a, b) => tileConsistencyProof(tiles, a, b),
    };
  }

  const findings = auditor.findings();
  const broken = findings.filter((f) => f.severity === 'entry');
  say(
    broken.length === 0,
    broken.length === 0
      ? 'Entries: every entry is canonical, of its kind, and signed by a key announced before it'
      : `Entries: ${broken.length} broken, the first at index ${broken[0].index}: ${broken[0].message}`,
  );
  for (const f of broken.slice(1, 20)) lines.push(`    entry ${f.index}: ${f.message}`);
  if (broken.length > 20) lines.push(`    … and ${broken.length - 20} more`);
  const monitor = findings.filter((f) => f.severity === 'monitor');
  say(
    monitor.length === 0,
    monitor.length === 0
      ? "Monitoring: no giveaway sealed twice, no owner sealing twice on one round, no list sealed by several owners on one round, no account's signed results skipping or repeating a number, no amendment skipping a reserve or breaking its chain"
      : `Monitoring: ${monitor.length} finding${monitor.length === 1 ? '' : 's'}`,
  );
  for (const f of monitor) lines.push(`    ${f.message}`);
  const results = options.account === undefined ? undefined : auditor.resultsOf(options.account);
  if (options.account !== undefined) lines.push(...resultLines(options.account, results ?? []));

  const pin = readPin(io.env, origin);
  const olders: [string, string][] = [];
  if (pin?.checkpoint) olders.push(['the newest checkpoint seen before', pin.checkpoint]);
  if (since !== undefined && options.since) olders.push([options.since, since]);
  let consistent = true;
  for (const [what, text] of olders) {
    const older = openCheckpoint(text, key);
    if (!older.ok) {
      consistent = say(false, `Consistency with ${what}: ${older.problem}`) && consistent;
      continue;
    }
    const problem = await consistencyProblem(proofs, older.checkpoint, checkpoint, auditor);
    consistent =
      say(
        problem === null,
        `Consistency with ${what} (size ${older.checkpoint.size}): ${problem ?? 'the log only grew'}`,
      ) && consistent;
  }
  // The pin follows the log's structure, not its content: a monitor that found a bad entry must
  // still catch a later rollback, so the checkpoint advances whenever it is signed and consistent.
  if (structure && consistent) writePin(io.env, { origin, log_key: key, checkpoint: note });
  return { ok, lines, findings, results };
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
  usage:
    'log verify LOG_URL [--since CHECKPOINT_FILE] [--log-key VKEY] [--account PSEUDONYM] [--entries] [--json]',
  summary: `Re-check a transparency log (CONTRACT §8): LOG_URL is the log (…/log) or the server's URL, or
the URL of a static mirror that serves tyche log export's files (…/log); a mirror has no keys document, so
its log key must be pinned already (by a run against the server) or given with --log-key.
Downloads every entry bundle and hash tile (progress on stderr; --entries reads /log/entries instead, from
a server without tiles), rebuilds the tree and compares it and every tile with the signed checkpoint,
checks each entry's kind, canonical form, hash and signature by a key the log announced before it and did
not retire, and each key entry's signature by the log key. Reports every giveaway with more than one seal
and every owner with more than one seal on the same drand round, and every account whose signed results
(kind result, numbered 1, 2, 3 … per account) skip or repeat a number; --account PSEUDONYM lists that
account's signed results (its number, serial, time, what was asked, hash). The log key is pinned on first
use under $XDG_STATE_HOME/tyche (or ~/.local/state/tyche) with the newest checkpoint, which the next run
must be consistent with; --log-key pins it explicitly; --since also checks a checkpoint saved earlier.
Exit status: 0 all hold, 1 a check failed or monitoring found something, 2 usage, 3 the log could not be read.`,
  options: {
    since: { type: 'string' },
    'log-key': { type: 'string' },
    account: { type: 'string' },
    entries: { type: 'boolean' },
    json: { type: 'boolean' },
  },
  async run({ values, positionals }, io) {
    if (positionals.length !== 1) throw new UsageError('give exactly one LOG_URL');
    const account = values.account as string | undefined;
    if (account !== undefined && !ACCOUNT_PSEUDONYM.test(account)) {
      throw new UsageError(
        `--account ${JSON.stringify(account)} is not an account pseudonym (o_ and 16 letters or digits)`,
      );
    }
    try {
      const outcome = await auditLog(
        positionals[0],
        {
          since: values.since as string | undefined,
          logKey: values['log-key'] as string | undefined,
          account,
          entries: values.entries === true,
        },
        io,
      );
      if (values.json) {
        const { ok: valid, lines, findings, results } = outcome;
        io.out(JSON.stringify({ valid, lines, findings, ...(results ? { account, results } : {}) }));
      } else {
        for (const line of outcome.lines) io.out(line);
        io.out(outcome.ok ? 'VALID: the log holds' : 'INVALID: see the ✗ lines above');
      }
      return outcome.ok ? 0 : 1;
    } catch (error) {
      if (!(error instanceof CannotCheck)) throw error;
      io.err(`tyche log verify: ${error.message}`);
      return EXIT_CANNOT_CHECK;
    }
  },
};
