import { pagesTranslatorFor, type Translate } from '../i18n/catalogue.ts';
import { DRAND_QUICKNET, DRAND_URL } from '../randomness/sources/drand.source.ts';

const SOURCE_NAMES: Record<string, string> = {
  anu: 'ANU quantum random numbers (vacuum fluctuations)',
  nist: 'NIST Randomness Beacon 2.0',
  drand: 'drand, League of Entropy quicknet beacon',
  system: 'the operating system’s CSPRNG',
};

export function describeSource(source: string): string {
  return SOURCE_NAMES[source] ?? source;
}

/**
 * Where anyone can read the public record a beacon value came from. Always the public services,
 * whatever relay the server used: that is the record a third party compares with.
 */
export function sourceReferenceUrl(source: string, reference: string): string | undefined {
  if (source === 'nist' && /^https:\/\/beacon\.nist\.gov\/[^\s"<>]*$/.test(reference)) return reference;
  if (source === 'drand' && /^[1-9][0-9]*$/.test(reference)) {
    return `${DRAND_URL}/${DRAND_QUICKNET.chainHash}/public/${reference}`;
  }
  return undefined;
}

/** `2025-06-01 12:00:00 UTC`; the input as given when it is not a date. */
export function formatUtc(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return String(iso);
  return `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** A published document's log entry (CONTRACT §8), as text: "entry 12 of /log", or why none. */
export function logEntryText(
  doc: object,
  member: 'log_index' | 'seal_log_index',
  t: Translate = pagesTranslatorFor('en'),
): string {
  const index = (doc as Record<string, unknown>)[member];
  return typeof index === 'number' ? t('log-entry', { index: String(index) }) : t('log-none');
}
