// Every public page's script (bundled for the browser), small and optional: the page reads the
// same without it. It writes each UTC time again in the visitor's local time beside it (the UTC
// stays in the HTML for readers without JavaScript), and on a sealed giveaway counts down to the
// committed round, then asks the giveaway's JSON until the draw is done and reloads.

/** How often a sealed page asks whether the draw is done, once the round is due. */
const POLL_MS = 5_000;

function localTimes(): void {
  const lang = document.documentElement.lang || undefined;
  const format = new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short' });
  for (const el of Array.from(document.querySelectorAll<HTMLTimeElement>('time[datetime]'))) {
    if (el.nextElementSibling?.classList.contains('local-time')) continue;
    const at = new Date(el.dateTime);
    // A visitor whose clock is on UTC reads the UTC time already.
    if (Number.isNaN(at.getTime()) || at.getTimezoneOffset() === 0) continue;
    const local = document.createElement('span');
    local.className = 'local-time';
    local.textContent = ` (${format.format(at)})`;
    el.after(local);
  }
}

function countdownText(ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const pad = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${pad(m)}:${pad(s % 60)}` : `${m}:${pad(s % 60)}`;
}

function countdown(box: HTMLElement): void {
  const due = Date.parse(box.dataset.roundAt ?? '');
  const url = box.dataset.giveawayJson;
  const shown = box.querySelector<HTMLElement>('[data-countdown]');
  if (Number.isNaN(due) || !url || !shown) return;
  shown.hidden = false;
  let polling = false;
  const tick = () => {
    const left = due - Date.now();
    shown.textContent = countdownText(left);
    if (left <= 0 && !polling) {
      polling = true;
      void poll();
    }
  };
  // One small JSON a few seconds apart, and only once the round is due: then the page reloads drawn.
  const poll = async () => {
    try {
      const res = await fetch(url, { headers: { accept: 'application/json' }, cache: 'no-store' });
      const g = (await res.json()) as { status?: string };
      if (g.status === 'completed') {
        location.reload();
        return;
      }
    } catch {
      // A failed ask is asked again.
    }
    setTimeout(() => void poll(), POLL_MS);
  };
  tick();
  setInterval(tick, 1000);
}

localTimes();
const box = document.getElementById('draw-countdown');
if (box) countdown(box);
// The receipt and verify pages add times as their checks run.
new MutationObserver(() => localTimes()).observe(document.body, { childList: true, subtree: true });
