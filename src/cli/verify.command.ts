import { existsSync, readFileSync } from 'node:fs';
import { configFromEnv } from '../config.ts';
import { sha256 } from '../giveaways/certificate.ts';
import { BEACON_VALUE_BYTES, type Certificate, KEYS_PATH, verifyDraw } from '../proof/verify-draw.ts';
import { compareBeaconRecord } from '../verify/beacon-record.ts';
import { parseParticipantsCsv } from '../verify/participants-csv.ts';
import { type Command, type Io, UsageError } from './command.ts';

/** Exit status when the draw could not be checked at all (unreachable server, unreadable file). */
export const EXIT_CANNOT_CHECK = 3;
const FETCH_TIMEOUT_MS = 15_000;

class CannotCheck extends Error {}

interface Sources {
  certificate: { url: string } | { file: string };
  keys: { url: string } | { file: string };
}

/** Where the certificate and the signing keys come from, for an id, a verify_url or a file. */
export function locate(target: string, keysOption: string | undefined, env: NodeJS.ProcessEnv): Sources {
  const keysFrom = (fallbackUrl: () => string) =>
    keysOption === undefined
      ? { url: fallbackUrl() }
      : /^https?:\/\//.test(keysOption)
        ? { url: keysOption }
        : { file: keysOption };
  const baseUrl = () => configFromEnv(env).publicBaseUrl;
  if (/^https?:\/\//i.test(target)) {
    const url = new URL(target);
    const path = url.pathname.replace(/\/+$/, '').replace(/\.(json|pdf)$/, '');
    if (!/\/verify\/[^/]+$/.test(path))
      throw new UsageError(`${target} is not a verify URL (…/verify/CERTIFICATE_ID)`);
    return {
      certificate: { url: `${url.origin}${path}.json` },
      keys: keysFrom(() => `${url.origin}${path.replace(/\/verify\/[^/]+$/, KEYS_PATH)}`),
    };
  }
  if (existsSync(target) || target.endsWith('.json')) {
    return { certificate: { file: target }, keys: keysFrom(() => `${baseUrl()}${KEYS_PATH}`) };
  }
  if (!/^[A-Za-z0-9_-]{1,128}$/.test(target)) {
    throw new UsageError(`${JSON.stringify(target)} is neither a certificate id, a verify URL nor a file`);
  }
  return {
    certificate: { url: `${baseUrl()}/verify/${target}.json` },
    keys: keysFrom(() => `${baseUrl()}${KEYS_PATH}`),
  };
}

async function load(source: { url: string } | { file: string }, what: string): Promise<unknown> {
  let text: string;
  if ('file' in source) {
    try {
      text = readFileSync(source.file, 'utf8');
    } catch (error) {
      throw new CannotCheck(`cannot read the ${what} file ${source.file}: ${(error as Error).message}`);
    }
  } else {
    let response: Response;
    try {
      response = await fetch(source.url, {
        headers: { accept: 'application/json' },
        signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
      });
    } catch (error) {
      const cause = (error as Error & { cause?: { code?: string; message?: string } }).cause;
      throw new CannotCheck(
        `cannot reach ${source.url}: ${cause?.code ?? cause?.message ?? (error as Error).message}`,
      );
    }
    if (response.status === 404) throw new CannotCheck(`no ${what} at ${source.url} (404 Not Found)`);
    if (!response.ok)
      throw new CannotCheck(`${source.url} answered ${response.status} ${response.statusText}`);
    text = await response.text();
  }
  try {
    return JSON.parse(text);
  } catch {
    const where = 'file' in source ? source.file : source.url;
    throw new CannotCheck(`the ${what} at ${where} is not JSON`);
  }
}

function readParticipants(file: string) {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new CannotCheck(`cannot read the participants file ${file}: ${(error as Error).message}`);
  }
  try {
    return parseParticipantsCsv(text).map((p) => p.telegram_id);
  } catch (error) {
    throw new CannotCheck(`${file} is not a participants.csv export: ${(error as Error).message}`);
  }
}

function describe(cert: unknown, io: Io): void {
  const c = cert as Partial<Certificate>;
  if (typeof c !== 'object' || c === null) return;
  io.out(`Certificate ${c.certificate_id} for giveaway ${c.public_id}: ${JSON.stringify(c.title)}`);
  if (typeof c.drawn_at === 'string') io.out(`Drawn at ${c.drawn_at} with ${c.algorithm}`);
  const r = c.randomness;
  if (r) io.out(`Randomness: ${r.source}, reference ${r.source_reference}`);
  io.out('');
}

export const verify: Command = {
  name: 'verify',
  usage: 'verify CERTIFICATE_ID|VERIFY_URL|FILE.json [--participants FILE.csv] [--keys FILE|URL] [--beacon]',
  summary: `Re-check a draw independently: the certificate's hash and Ed25519 signature against the published keys,
the seed and every winner's index; with --participants (the giveaway's participants.csv export) also
participants_hash and each winner's telegram_id; with --beacon, for a NIST or drand draw, the beacon
value against the beacon's public record (NIST_BEACON_URL and DRAND_URL name other relays).

A certificate id is fetched from PUBLIC_BASE_URL, a verify URL from its own server (keys from that
server's ${KEYS_PATH}); a file's keys come from PUBLIC_BASE_URL or --keys (a file or URL).
Exit status: 0 valid, 1 a check failed, 2 usage, ${EXIT_CANNOT_CHECK} could not fetch or read the inputs.`,
  options: { participants: { type: 'string' }, keys: { type: 'string' }, beacon: { type: 'boolean' } },
  async run(args, io) {
    if (args.positionals.length !== 1) {
      throw new UsageError('give exactly one CERTIFICATE_ID, VERIFY_URL or FILE');
    }
    const sources = locate(args.positionals[0], args.values.keys as string | undefined, io.env);
    const csv = args.values.participants as string | undefined;
    let certificate: unknown;
    let keys: unknown;
    let participantIds: ReturnType<typeof readParticipants> | undefined;
    try {
      [certificate, keys] = await Promise.all([
        load(sources.certificate, 'certificate'),
        load(sources.keys, 'signing keys'),
      ]);
      participantIds = csv === undefined ? undefined : readParticipants(csv);
    } catch (error) {
      if (!(error instanceof CannotCheck)) throw error;
      io.err(`tyche verify: ${error.message}`);
      return EXIT_CANNOT_CHECK;
    }
    describe(certificate, io);
    const { checks } = await verifyDraw({ certificate, keys, participantIds, sha256 });
    const randomness = (certificate as Partial<Certificate>).randomness;
    const isBeacon = checks[0].ok && randomness !== undefined && randomness.source in BEACON_VALUE_BYTES;
    if (isBeacon && args.values.beacon) {
      const relays = { nist: io.env.NIST_BEACON_URL || undefined, drand: io.env.DRAND_URL || undefined };
      const { ok, detail } = await compareBeaconRecord(randomness, relays);
      const at = checks.findIndex((c) => c.id === 'randomness') + 1;
      checks.splice(at, 0, { id: 'beacon', label: 'Public beacon record', ok, detail });
    }
    for (const check of checks) io.out(`${check.ok ? '✓' : '✗'} ${check.label}: ${check.detail}`);
    if (isBeacon && !args.values.beacon) {
      io.out('- Public beacon record: not checked; pass --beacon to compare beacon_value with it');
    }
    if (!participantIds) {
      io.out(
        '- Participant list: not checked; pass --participants participants.csv to check it and the winners',
      );
    }
    const failed = checks.filter((c) => !c.ok).length;
    io.out('');
    io.out(
      failed === 0 ? 'VALID: every check passed.' : `INVALID: ${failed} of ${checks.length} checks failed.`,
    );
    return failed === 0 ? 0 : 1;
  },
};
