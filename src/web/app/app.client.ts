// The Mini App's script (bundled for the browser): Telegram's sign-in first (the raw initData,
// checked by the server, which answers a bearer token kept in memory), then the entrant's and,
// on the Business plan, the owner's views. `?g=<public_id>` opens on one giveaway.

import { ApiProblem, api, useToken } from './app-api.client.ts';
import { startBridge } from './app-bridge.client.ts';
import { $, setLanguage, status, t } from './app-dom.client.ts';
import type { SignedIn } from './app-session.ts';
import { createEntrantView } from './entrant-view.client.ts';
import { createOwnerView } from './owner-view.client.ts';

function ended(): void {
  $('app-view').replaceChildren();
  $('app-tabs').hidden = true;
  status(t('app-session-expired'), 'bad');
}

async function start(): Promise<void> {
  const initData = startBridge();
  if (!initData) {
    status(t('app-outside-telegram'), 'bad');
    return;
  }
  let session: SignedIn;
  try {
    session = await api('/app/session', { method: 'POST', body: { init_data: initData } });
  } catch (error) {
    const reason = error instanceof ApiProblem ? error.message : String(error);
    status(t('app-signin-failed', { reason }), 'bad');
    return;
  }
  useToken(session.token, ended);
  setLanguage(session.user.language);
  document.title = t('app-title');
  const user = $('app-user');
  user.textContent = t('app-hello', {
    name: session.user.username ? `@${session.user.username}` : session.user.first_name,
  });
  user.hidden = false;

  const entrant = createEntrantView(session.user);
  const owner = createOwnerView();
  const focus = new URLSearchParams(location.search).get('g') ?? undefined;
  const tabs = { entries: $('tab-entries'), giveaways: $('tab-giveaways') };
  tabs.entries.textContent = t('app-tab-entries');
  tabs.giveaways.textContent = t('app-tab-giveaways');
  tabs.giveaways.hidden = !session.business;
  $('app-tabs').hidden = false;

  const select = async (tab: 'entries' | 'giveaways', id?: string) => {
    tabs.entries.setAttribute('aria-selected', String(tab === 'entries'));
    tabs.giveaways.setAttribute('aria-selected', String(tab === 'giveaways'));
    try {
      if (tab === 'entries') await entrant.list(id);
      else if (id) await owner.detail(id);
      else await owner.list();
    } catch (error) {
      if (error instanceof ApiProblem && error.status === 401) return;
      status(t('app-error', { detail: (error as Error).message }), 'bad');
    }
  };
  tabs.entries.addEventListener('click', () => void select('entries'));
  tabs.giveaways.addEventListener('click', () => void select('giveaways'));
  await select('entries', focus);
}

void start();
