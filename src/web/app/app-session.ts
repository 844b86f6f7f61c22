import type { AccountService } from '../../accounts/account.service.ts';
import { hasBusinessAccess, type Plan } from '../../accounts/plans.ts';
import { type Language, languageOf } from '../../i18n/catalogue.ts';
import type { Clock } from '../../shared/clock.ts';
import { AppError } from '../../shared/errors.ts';
import type { AppTokens } from './app-token.ts';
import { checkInitData } from './init-data.ts';

/** Who calls the app's API: the Telegram user of the token, and their account when they have one. */
export interface AppCaller {
  telegramId: number;
  accountId: string | null;
  plan: Plan;
  business: boolean;
}

export interface SignedIn {
  token: string;
  expires_at: string;
  user: { telegram_id: number; first_name: string; username: string | null; language: Language };
  business: boolean;
  plan: Plan;
}

export interface SessionDeps {
  botToken: string;
  tokens: AppTokens;
  clock: Clock;
  /** The account a Telegram user owns (the one the bot's /start and `keys create --owner` make). */
  accounts: Pick<AccountService, 'findByTelegramId'>;
  /** The language the user chose with the bot's /language, if any. */
  chosenLanguage(telegramId: number): Promise<string | null>;
}

/**
 * CONTRACT §15 sign-in: initData checked as Telegram documents, then a token bound to the user.
 * The account and its plan are read again on every call, so a plan change applies at once.
 */
export function createAppSessions(deps: SessionDeps) {
  async function callerOf(telegramId: number): Promise<AppCaller> {
    const account = await deps.accounts.findByTelegramId(telegramId);
    const plan = account?.plan ?? 'free';
    return { telegramId, accountId: account?.id ?? null, plan, business: hasBusinessAccess(plan) };
  }

  return {
    async signIn(initData: unknown): Promise<SignedIn> {
      const user = checkInitData(initData, deps.botToken, deps.clock.now());
      const caller = await callerOf(user.telegram_id);
      const chosen = await deps.chosenLanguage(user.telegram_id);
      const { token, expiresAt } = deps.tokens.issue(user.telegram_id);
      return {
        token,
        expires_at: new Date(expiresAt).toISOString(),
        user: {
          telegram_id: user.telegram_id,
          first_name: user.first_name,
          username: user.username,
          language: languageOf(chosen, user.language_code ?? undefined),
        },
        business: caller.business,
        plan: caller.plan,
      };
    },

    /** The caller a signed link names (the link itself was checked by its route). */
    callerById: callerOf,

    /** The caller of an app API request, or a 401. */
    async caller(authorization: string | undefined): Promise<AppCaller> {
      return callerOf(deps.tokens.verify(authorization).telegramId);
    },

    /** The caller, who must own a Business account (403 `plan_not_supported` otherwise). */
    async owner(authorization: string | undefined): Promise<AppCaller & { accountId: string }> {
      const caller = await callerOf(deps.tokens.verify(authorization).telegramId);
      if (!caller.business || caller.accountId === null) {
        throw new AppError('plan_not_supported', 'Running giveaways needs the Business plan');
      }
      return { ...caller, accountId: caller.accountId };
    },
  };
}

export type AppSessions = ReturnType<typeof createAppSessions>;
