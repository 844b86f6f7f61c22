// The "Verify this draw" button of /verify/{id}, for v1 and v2 certificates. Browser only (bundled):
// it runs proof/verifier.ts, the one verifier the server and the CLI run too, and for a v2 draw
// reads the drand round from the relay itself. It sends no credentials: the proof is public.

import { sha256 } from '@noble/hashes/sha2.js';
import { isRecord } from '../proof/report.ts';
import { ALGORITHM_V2 } from '../proof/v2-types.ts';
import { verifyCertificate } from '../proof/verifier.ts';
import {
  fetchJson,
  fillTimestampLines,
  pageText,
  renderChecks,
  type ShownCheck,
  shownCheck,
} from './check-list.ts';
import { noteLine } from './check-notes.ts';
import { pageLogChecks, typedTsaTrust, wireEvidenceSettings } from './log-page-check.ts';
import { chainsFor, relayRound } from './relay-fetch.ts';

/** English, for a page that carries no text of its own (the server renders it in the page's language). */
const text = pageText({
  verifying: 'Verifying…',
  invalid: 'Invalid: {failed} of {total} checks failed. Do not trust this result.',
  operator:
    "The certificate checks out ({passed} in your browser), but the operator's randomness must be trusted.",
  valid:
    'Valid draw: {passed} in your browser. The winners follow from the sealed list and the public drand round alone.',
  allPassed: 'all {total} checks passed',
  noneFailed: 'no check failed',
  couldNot: 'Could not verify: {error}',
  warning: 'Warning',
});

/** The pages' phone layout (PAGE_STYLE): there passed checks fold, so the winners follow the verdict. */
const NARROW = '(max-width: 36rem)';

/** The rows the server rendered, so what a visitor reads is tied to what was verified. */
function checkPage(section: HTMLElement, certificate: unknown): ShownCheck {
  const label = 'This page shows the certificate';
  const cert = isRecord(certificate) ? certificate : {};
  const rows = (kind: string) =>
    Array.from(document.querySelectorAll<HTMLElement>(`[data-${kind}-position]`), (row) => ({
      position: row.getAttribute(`data-${kind}-position`) ?? '',
      telegramId: row.dataset.telegramId ?? '',
    }));
  const same = (kind: string, listed: unknown) => {
    const shown = rows(kind);
    const list = Array.isArray(listed) ? (listed as Record<string, unknown>[]) : [];
    return (
      shown.length === list.length &&
      shown.every(
        (w, i) => w.position === String(list[i]?.position) && w.telegramId === String(list[i]?.telegram_id),
      )
    );
  };
  const reservesOk = cert.algorithm !== ALGORITHM_V2 || same('reserve', cert.reserves);
  // The winners as amended, when shown, are those the JSON publishes (and the checks below verify).
  const amendedOk = same('amended', cert.amended_winners ?? []);
  return section.dataset.hash === cert.hash && same('winner', cert.winners) && reservesOk && amendedOk
    ? { label, state: 'ok', detail: 'the hash and winners on this page are those of the signed certificate' }
    : { label, state: 'bad', detail: 'the hash or winners on this page differ from the certificate' };
}

/** A v2 certificate: the chain's key and the round, both read from the relay by this browser. */
async function relayInputs(section: HTMLElement, certificate: unknown) {
  const beacon = isRecord(certificate) && isRecord(certificate.beacon) ? certificate.beacon : undefined;
  const relay = section.dataset.relay;
  if (!relay || !beacon || typeof beacon.chain_hash !== 'string' || typeof beacon.round !== 'number') {
    return { chains: [], notes: [] as ShownCheck[], beaconRecord: undefined };
  }
  const [{ chains, notes }, round] = await Promise.all([
    chainsFor(relay, beacon.chain_hash),
    relayRound(relay, beacon.chain_hash, beacon.round),
  ]);
  if (round.problem !== undefined) {
    notes.push(noteLine('relayLabel', 'relayUnread', { url: round.url, problem: String(round.problem) }));
  }
  return { chains, notes, beaconRecord: round.record };
}

async function run(section: HTMLElement, button: HTMLButtonElement): Promise<void> {
  const status = document.getElementById('verify-status')!;
  const list = document.getElementById('verify-checks')!;
  const result = document.getElementById('verify-result')!;
  const details = document.getElementById('verify-details') as HTMLDetailsElement | null;
  button.disabled = true;
  result.setAttribute('aria-busy', 'true');
  status.className = '';
  status.textContent = text('verifying');
  list.replaceChildren();
  try {
    const [certificate, keys] = await Promise.all([
      fetchJson(section.dataset.certificateUrl!),
      fetchJson(section.dataset.keysUrl!),
    ]);
    const v2 = isRecord(certificate) && certificate.algorithm === ALGORITHM_V2;
    const extra = v2 ? await relayInputs(section, certificate) : undefined;
    const report = await verifyCertificate({
      certificate,
      keys,
      sha256,
      chains: extra?.chains,
      beaconRecord: extra?.beaconRecord,
      tsaTrust: typedTsaTrust(),
    });
    fillTimestampLines(report.timestamps);
    const checks = [
      checkPage(section, certificate),
      // v1's trust line is a statement, not something the browser could check: shown as a note.
      ...report.checks.map((c) =>
        c.id === 'trust' ? { ...shownCheck(c), state: 'note' as const } : shownCheck(c),
      ),
      ...(await pageLogChecks(certificate, keys, report.outside)),
      ...(extra?.notes ?? []),
    ];
    const counted = checks.filter((c) => c.state !== 'note');
    const failed = counted.filter((c) => c.state === 'bad').length;
    const warned = counted.filter((c) => c.state === 'warn');
    const passed = warned.length === 0 ? text('allPassed', { total: counted.length }) : text('noneFailed');
    const warnings = warned.map((c) => ` ${text('warning')}: ${c.label}: ${c.detail}.`).join('');
    renderChecks(list, checks);
    if (details) {
      details.hidden = false;
      details.open = failed > 0 || warned.length > 0 || !matchMedia(NARROW).matches;
    }
    const operator = report.trust === 'operator';
    status.className = failed === 0 ? (operator ? 'verdict' : 'verdict ok') : 'verdict bad';
    if (failed > 0) {
      status.textContent = text('invalid', { failed, total: counted.length });
    } else if (operator) {
      status.textContent = `${text('operator', { passed })}${warnings}`;
    } else {
      status.textContent = `${text('valid', { passed })}${warnings}`;
    }
  } catch (error) {
    status.className = 'verdict bad';
    status.textContent = text('couldNot', { error: (error as Error).message });
  } finally {
    result.removeAttribute('aria-busy');
    button.disabled = false;
  }
}

const section = document.getElementById('verify');
const button = document.getElementById('verify-button');
if (section && button instanceof HTMLButtonElement) {
  button.hidden = false;
  button.addEventListener('click', () => void run(section, button));
  // A verdict already shown is re-run under the visitor's new witnesses or requirement.
  wireEvidenceSettings(() => {
    if (document.getElementById('verify-checks')?.hasChildNodes()) void run(section, button);
  });
}
