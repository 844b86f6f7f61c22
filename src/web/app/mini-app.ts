import type { FastifyInstance } from 'fastify';
import type { AccountService } from '../../accounts/account.service.ts';
import type { Clock } from '../../shared/clock.ts';
import { appRoutes } from './app.routes.ts';
import { createAppEntrant } from './app-entrant.ts';
import { createAppOwner } from './app-owner.ts';
import { appCsp, renderAppPage } from './app-page.ts';
import type { AppGiveaways, AppTelegram } from './app-ports.ts';
import { createAppSessions } from './app-session.ts';
import { loadAppStrings } from './app-strings.ts';
import { createAppTokens } from './app-token.ts';

export interface MiniAppDeps {
  botToken: string;
  publicBaseUrl: string;
  /** The drand relay the page's receipt check reads rounds from. */
  drandUrl: string;
  accounts: Pick<AccountService, 'findByTelegramId'>;
  giveaways: AppGiveaways;
  telegram: AppTelegram;
  clock: Clock;
}

/** The address the bot's menu button and web_app buttons open; Telegram opens https:// only. */
export function miniAppUrl(publicBaseUrl: string): string | undefined {
  return publicBaseUrl.startsWith('https://') ? `${publicBaseUrl}/app` : undefined;
}

/** Registers the Mini App (CONTRACT §15) on the HTTP app; the bot calls it when it runs. */
export async function registerMiniApp(app: FastifyInstance, deps: MiniAppDeps): Promise<void> {
  const tokens = createAppTokens({ botToken: deps.botToken, clock: deps.clock });
  const sessions = createAppSessions({
    botToken: deps.botToken,
    tokens,
    clock: deps.clock,
    accounts: deps.accounts,
    chosenLanguage: deps.telegram.chosenLanguage,
  });
  const page = {
    html: renderAppPage(loadAppStrings(), { base: deps.publicBaseUrl, relay: deps.drandUrl }),
    csp: appCsp(deps.drandUrl),
  };
  await app.register(appRoutes, {
    sessions,
    tokens,
    page,
    entrant: createAppEntrant({ giveaways: deps.giveaways }),
    owner: createAppOwner({
      giveaways: deps.giveaways,
      telegram: deps.telegram,
      tokens,
      clock: deps.clock,
      publicBaseUrl: deps.publicBaseUrl,
    }),
  });
}
