// Telegram's side of the page, through @telegram-apps/sdk: the launch parameters (initData, the
// theme), Telegram's colours bound to --tg-theme-* variables, the safe areas bound to
// --tg-viewport-* variables, the back button, haptics and links. Every call is made only when
// the Telegram client supports it, so an older client (or a plain browser) still gets the page.

import {
  backButton,
  hapticFeedback,
  init,
  isTMA,
  miniApp,
  openLink,
  openTelegramLink,
  retrieveRawInitData,
  themeParams,
  viewport,
} from '@telegram-apps/sdk';

let started = false;

/** A bridge call that fails (an old client, an unknown host) costs that feature, never the page. */
function safely(step: () => void): void {
  try {
    step();
  } catch {
    // The page works without it: Telegram's colours fall back to the page's own.
  }
}

/** The raw initData string Telegram launched the page with, or undefined outside Telegram. */
export function startBridge(): string | undefined {
  let raw: string | undefined;
  try {
    if (!isTMA()) return undefined;
    init();
    raw = retrieveRawInitData();
  } catch {
    return undefined;
  }
  if (!raw) return undefined;
  started = true;
  safely(() => {
    if (!themeParams.mountSync.isAvailable()) return;
    themeParams.mountSync();
    themeParams.bindCssVars.ifAvailable();
    document.documentElement.classList.add(themeParams.isDark() ? 'tg-dark' : 'tg-light');
  });
  safely(() => {
    if (!miniApp.mountSync.isAvailable()) return;
    miniApp.mountSync();
    miniApp.bindCssVars.ifAvailable();
  });
  // The viewport answers asynchronously (the safe areas arrive as events): the page does not wait.
  safely(() => {
    if (!viewport.mount.isAvailable()) return;
    viewport
      .mount()
      .then(() => {
        viewport.bindCssVars.ifAvailable();
        viewport.expand.ifAvailable();
      })
      .catch(() => {});
  });
  safely(() => backButton.mount.ifAvailable());
  safely(() => miniApp.ready.ifAvailable());
  return raw;
}

let backHandler: (() => void) | undefined;

/** Shows Telegram's back button with this action, or hides it (undefined). */
export function setBack(action: (() => void) | undefined): void {
  if (!started) return;
  safely(() => {
    if (backHandler) backButton.offClick.ifAvailable(backHandler);
    backHandler = action;
    if (action) {
      backButton.onClick.ifAvailable(action);
      backButton.show.ifAvailable();
    } else backButton.hide.ifAvailable();
  });
}

export function buzz(kind: 'success' | 'error' | 'warning'): void {
  if (started) safely(() => hapticFeedback.notificationOccurred.ifAvailable(kind));
}

/** Opens a link: t.me inside Telegram, anything else in the browser Telegram chooses. */
export function open(url: string): void {
  const isTelegram = /^https:\/\/t\.me\//.test(url);
  try {
    if (started && isTelegram && openTelegramLink.isAvailable()) {
      openTelegramLink(url);
      return;
    }
    if (started && openLink.isAvailable()) {
      openLink(url);
      return;
    }
  } catch {
    // Left to the browser below.
  }
  window.open(url, '_blank', 'noopener');
}
