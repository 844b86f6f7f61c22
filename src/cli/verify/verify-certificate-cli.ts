// `tyche verify CERTIFICATE`: where the certificate and keys come from, the optional inputs
// (participants, entrants, the relay's copy of the round), and what was left unchecked.

import { existsSync } from 'node:fs';
import { ALGORITHM } from '../../proof/draw-v1.ts';
import { splitLogAnnotations } from '../../proof/log-entry.ts';
import { noSealCheck, type OutsideAttestation } from '../../proof/outside-evidence.ts';
import { isRecord } from '../../proof/report.ts';
import { ALGORITHM_V2 } from '../../proof/v2-types.ts';
import { type Check, type Report, verifyCertificate } from '../../proof/verifier.ts';
import { BEACON_VALUE_BYTES, type CertificateV1 } from '../../proof/verify-v1.ts';
import { UsageError } from '../command.ts';
import { amendmentSummary } from './amendment-summary.ts';
import { compareBeaconRecord } from './beacon-record.ts';
import { relayOf, relayRound } from './drand-relay.ts';
import { parseEntrantsExport } from './entrants-export.ts';
import { addSealTime, logEvidence } from './log-checks.ts';
import { parseParticipantsCsv } from './participants-csv.ts';
import { addTermsCheck, readTermsOption } from './terms-check.ts';
import { chainHint, type NotChecked, type VerifyResult } from './verify-cli-output.ts';
import { keysSource, trimSlash, type VerifyContext } from './verify-context.ts';
import { CannotCheck, isUrl, loadJson, readTextFile, type Source } from './verify-inputs.ts';

interface Located {
  certificate: Source;
  keys: Source;
  /** The server the certificate is published on (origin and any path prefix). */
  server: string;
}

/** Where the certificate and the signing keys come from, for an id, a verify_url or a file. */
function locate(target: string, context: VerifyContext): Located {
  const keys = (server: string) => keysSource(context, () => server);
  if (isUrl(target)) {
    const url = new URL(target);
    const path = url.pathname.replace(/\/+$/, '').replace(/\.(json|pdf)$/, '');
    const match = /^(.*)\/verify\/[^/]+$/.exec(path);
    if (!match) throw new UsageError(`${target} is not a verify URL (…/verify/CERTIFICATE_ID)`);
    const server = `${url.origin}${match[1]}`;
    return { certificate: { url: `${url.origin}${path}.json` }, keys: keys(server), server };
  }
  if (existsSync(target) || target.endsWith('.json')) {
    const server = trimSlash(context.io.baseUrl());
    return { certificate: { file: target }, keys: keys(server), server };
  }
  if (!/^[A-Za-z0-9_-]{1,128}$/.test(target)) {
    throw new UsageError(`${JSON.stringify(target)} is neither a certificate id, a verify URL nor a file`);
  }
  const server = trimSlash(context.io.baseUrl());
  return { certificate: { url: `${server}/verify/${target}.json` }, keys: keys(server), server };
}

function readParticipants(file: string): (number | bigint)[] {
  const text = readTextFile(file, 'participants');
  try {
    return parseParticipantsCsv(text).map((p) => p.telegram_id);
  } catch (error) {
    throw new CannotCheck(`${file} is not a participants.csv export: ${(error as Error).message}`);
  }
}

function readEntrants(file: string) {
  const text = readTextFile(file, 'entrants');
  try {
    return parseEntrantsExport(text);
  } catch (error) {
    throw new CannotCheck(`${file} is not an entrants export: ${(error as Error).message}`);
  }
}

async function relayRecord(context: VerifyContext, cert: Record<string, unknown>, server: string) {
  const beacon = isRecord(cert.beacon) ? cert.beacon : {};
  const seal = isRecord(cert.seal) ? cert.seal : {};
  const publicId = isRecord(seal.giveaway) ? String(seal.giveaway.public_id) : '';
  const relay = await relayOf(context, server, publicId);
  const { url, record } = await relayRound(relay, String(beacon.chain_hash), Number(beacon.round));
  if (!record) throw new CannotCheck(`no drand round ${String(beacon.round)} at ${url} (404 Not Found)`);
  return record;
}

function heading(cert: unknown): string[] {
  if (!isRecord(cert)) return [];
  const seal = isRecord(cert.seal) ? cert.seal : undefined;
  const giveaway = seal && isRecord(seal.giveaway) ? seal.giveaway : cert;
  const lines = [
    `Certificate ${cert.certificate_id} for giveaway ${giveaway.public_id}: ${JSON.stringify(giveaway.title)}`,
  ];
  if (cert.algorithm === ALGORITHM_V2 && seal && isRecord(seal.entrants) && isRecord(cert.beacon)) {
    lines.push(
      `Sealed at ${seal.sealed_at}: ${seal.entrants.count} entrants, root ${seal.entrants.root}`,
      `Drawn at ${cert.drawn_at} with ${cert.algorithm} from drand round ${cert.beacon.round} of chain ${cert.beacon.chain_hash}`,
    );
  } else {
    if (typeof cert.drawn_at === 'string') lines.push(`Drawn at ${cert.drawn_at} with ${cert.algorithm}`);
    const r = isRecord(cert.randomness) ? cert.randomness : undefined;
    if (r) lines.push(`Randomness: ${r.source}, reference ${r.source_reference}`);
  }
  return lines;
}

/** Fetches and reads every input, then runs the one verifier on them. */
export async function verifyCertificateFrom(target: string, context: VerifyContext): Promise<VerifyResult> {
  const { values, sha256, chains } = context;
  const where = locate(target, context);
  const csv = values.participants as string | undefined;
  const entrantsFile = values.entrants as string | undefined;
  const [certificate, keys] = await Promise.all([
    loadJson(where.certificate, 'certificate'),
    loadJson(where.keys, 'signing keys'),
  ]);
  const algorithm = isRecord(certificate) ? certificate.algorithm : undefined;
  if (algorithm === ALGORITHM_V2 && csv !== undefined) {
    throw new UsageError(
      `--participants is for ${ALGORITHM} certificates; for ${ALGORITHM_V2} pass --entrants`,
    );
  }
  if (algorithm === ALGORITHM && entrantsFile !== undefined) {
    throw new UsageError(
      `--entrants is for ${ALGORITHM_V2} certificates; for ${ALGORITHM} pass --participants`,
    );
  }
  const participantIds = csv === undefined ? undefined : readParticipants(csv);
  const entrants = entrantsFile === undefined ? undefined : readEntrants(entrantsFile);
  const terms = readTermsOption(context);
  const wantsBeacon = values.beacon === true;
  const beaconRecord =
    wantsBeacon && algorithm === ALGORITHM_V2 && isRecord(certificate)
      ? await relayRecord(context, certificate, where.server)
      : undefined;
  const report = await verifyCertificate({
    certificate,
    keys,
    sha256,
    chains,
    participantIds,
    entrants,
    beaconRecord,
    tsaTrust: context.tsaTrust,
  });
  const notChecked: NotChecked[] = [];
  const signed = splitLogAnnotations(certificate).signed;
  const sealOf = isRecord(signed) && isRecord(signed.seal) ? { seal: signed.seal } : undefined;
  addTermsCheck(
    report,
    sealOf ?? { missing: `a ${String(algorithm)} certificate has no seal, so it commits to no terms` },
    terms,
    sha256,
    notChecked,
  );
  const outside = await addLogChecks(report, certificate, where, context, notChecked);
  // Witnesses and TSA tokens date the seal together (CONTRACT §13).
  addSealTimeOf(report, certificate, [...outside, ...(report.outside ?? [])], context);
  if (report.algorithm === ALGORITHM_V2) {
    if (!entrants) {
      notChecked.push({
        id: 'entrants',
        label: 'Entrant list',
        detail:
          "not checked; pass --entrants entrants.json (the owner's export) to rebuild the root from every entrant",
      });
    }
    if (!wantsBeacon) {
      notChecked.push({
        id: 'beacon-record',
        label: 'drand relay record',
        detail: "not checked; pass --beacon to compare the round with a drand relay's copy",
      });
    }
    notChecked.push(...chainHint(report, chains.length));
  } else if (report.algorithm === ALGORITHM) {
    await addV1Beacon(report, certificate, context, notChecked);
    if (!participantIds) {
      notChecked.push({
        id: 'participants',
        label: 'Participant list',
        detail: 'not checked; pass --participants participants.csv to check it and the winners',
      });
    }
  }
  return {
    heading: heading(certificate),
    report,
    notChecked,
    summary: amendmentSummary(certificate),
    extra: { certificate_id: isRecord(certificate) ? (certificate.certificate_id ?? null) : null },
  };
}

/** v1 drawn from NIST or drand: the beacon value against the beacon's public record. */
async function addV1Beacon(
  report: Report,
  certificate: unknown,
  context: VerifyContext,
  notChecked: NotChecked[],
) {
  const randomness = (certificate as Partial<CertificateV1>).randomness;
  const isBeacon =
    report.checks[0]?.ok && randomness !== undefined && randomness.source in BEACON_VALUE_BYTES;
  if (!isBeacon) return;
  if (context.values.beacon !== true) {
    notChecked.push({
      id: 'beacon',
      label: 'Public beacon record',
      detail: 'not checked; pass --beacon to compare beacon_value with it',
    });
    return;
  }
  const { env } = context.io;
  const relays = {
    nist: env.NIST_BEACON_URL || undefined,
    drand: (context.values.relay as string | undefined) || env.DRAND_URL || undefined,
  };
  const { ok, detail } = await compareBeaconRecord(randomness, relays);
  const check: Check = { id: 'beacon', label: 'Public beacon record', ok, detail };
  const at = report.checks.findIndex((c) => c.id === 'randomness') + 1;
  report.checks.splice(at, 0, check);
  report.valid = report.valid && ok;
}

/**
 * The verdict on the seal's time (CONTRACT §13) from the outside attestations that verified; a v1
 * draw has no seal, so it gets a line only when the reader requires outside evidence.
 */
function addSealTimeOf(
  report: Report,
  certificate: unknown,
  outside: OutsideAttestation[],
  context: VerifyContext,
): void {
  const { signed } = splitLogAnnotations(certificate);
  if (report.algorithm === ALGORITHM_V2 && isRecord(signed) && isRecord(signed.seal)) {
    addSealTime(report, signed.seal, outside, context);
  } else if (report.algorithm === ALGORITHM && context.requireOutside > 0) {
    report.checks.push(noSealCheck(context.requireOutside));
    report.valid = false;
  }
}

/**
 * A certificate read from its server is checked against that server's log (CONTRACT §8); the
 * witnesses' attestations of its seal's time that verified are returned for the verdict on it.
 */
async function addLogChecks(
  report: Report,
  certificate: unknown,
  where: Located,
  context: VerifyContext,
  notChecked: NotChecked[],
): Promise<OutsideAttestation[]> {
  const { signed, annotations } = splitLogAnnotations(certificate);
  if (!('url' in where.certificate) || !isRecord(signed) || !('log_index' in annotations)) {
    notChecked.push({
      id: 'log',
      label: 'Transparency log',
      detail: 'not checked; verify the certificate by its verify URL to check it against the log',
    });
    return [];
  }
  const { checks, outside } = await logEvidence(context, {
    server: where.server,
    annotations,
    certificate: signed,
    seal: isRecord(signed.seal) ? signed.seal : undefined,
  });
  report.checks.push(...checks);
  report.valid = report.valid && checks.every((c) => c.ok);
  return outside;
}
