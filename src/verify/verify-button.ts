// The "Verify this draw" button of /verify/{id}. Runs in the browser only (served type-stripped as
// /assets/js/verify/verify-button.js); everything it checks comes from proof/verify-draw.ts, the same code
// `tyche verify` runs. It sends no credentials: the proof is public.
import { sha256 } from '../proof/sha256.ts';
import { type CheckResult, verifyDraw } from '../proof/verify-draw.ts';

type ShownCheck = Omit<CheckResult, 'id'>;

interface PageWinner {
  position: string;
  telegramId: string;
}

async function fetchJson(url: string): Promise<unknown> {
  const response = await fetch(url, {
    headers: { accept: 'application/json' },
    credentials: 'omit',
    cache: 'no-store',
  });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return response.json();
}

/** The page was rendered by the server; this ties what a visitor reads to what was verified. */
function checkPage(section: HTMLElement, certificate: unknown): ShownCheck {
  const label = 'This page shows the certificate';
  const cert = (certificate ?? {}) as {
    hash?: unknown;
    winners?: { position?: unknown; telegram_id?: unknown }[];
  };
  const shown: PageWinner[] = Array.from(
    document.querySelectorAll<HTMLElement>('[data-winner-position]'),
    (row) => ({
      position: row.dataset.winnerPosition ?? '',
      telegramId: row.dataset.telegramId ?? '',
    }),
  );
  const listed = Array.isArray(cert.winners) ? cert.winners : [];
  const same =
    section.dataset.hash === cert.hash &&
    shown.length === listed.length &&
    shown.every(
      (w, i) => w.position === String(listed[i]?.position) && w.telegramId === String(listed[i]?.telegram_id),
    );
  return same
    ? { label, ok: true, detail: 'the hash and winners on this page are those of the signed certificate' }
    : { label, ok: false, detail: 'the hash or winners on this page differ from the certificate' };
}

function renderChecks(list: HTMLElement, checks: ShownCheck[]): void {
  list.replaceChildren(
    ...checks.map((check) => {
      const item = document.createElement('li');
      item.className = check.ok ? 'check ok' : 'check bad';
      const mark = document.createElement('span');
      mark.className = 'mark';
      mark.setAttribute('aria-hidden', 'true');
      mark.textContent = check.ok ? '✓' : '✗';
      const label = document.createElement('strong');
      label.textContent = `${check.label}: ${check.ok ? 'passed' : 'FAILED'}`;
      const detail = document.createElement('span');
      detail.className = 'detail';
      detail.textContent = check.detail;
      item.append(mark, ' ', label, ' ', detail);
      return item;
    }),
  );
}

async function run(section: HTMLElement, button: HTMLButtonElement): Promise<void> {
  const status = document.getElementById('verify-status')!;
  const list = document.getElementById('verify-checks')!;
  const result = document.getElementById('verify-result')!;
  button.disabled = true;
  result.setAttribute('aria-busy', 'true');
  status.className = '';
  status.textContent = 'Verifying…';
  list.replaceChildren();
  try {
    const [certificate, keys] = await Promise.all([
      fetchJson(section.dataset.certificateUrl!),
      fetchJson(section.dataset.keysUrl!),
    ]);
    const report = await verifyDraw({ certificate, keys, sha256 });
    const checks = [checkPage(section, certificate), ...report.checks];
    const failed = checks.filter((c) => !c.ok).length;
    renderChecks(list, checks);
    status.className = failed === 0 ? 'verdict ok' : 'verdict bad';
    status.textContent =
      failed === 0
        ? `Valid draw: all ${checks.length} checks passed in your browser.`
        : `Invalid: ${failed} of ${checks.length} checks failed. Do not trust this result.`;
  } catch (error) {
    status.className = 'verdict bad';
    status.textContent = `Could not verify: ${(error as Error).message}`;
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
}
