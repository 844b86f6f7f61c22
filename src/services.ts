import { createAccountRepository } from './accounts/account.repository.ts';
import { createAccountService } from './accounts/account.service.ts';
import { createQuotaService } from './accounts/quota.service.ts';
import { createUsageRepository } from './accounts/usage.repository.ts';
import { type Clock, systemClock } from './clock.ts';
import type { Config } from './config.ts';
import type { Store } from './store/store.ts';

/**
 * The services every entry point shares (HTTP, bot, CLI), each given exactly the
 * repositories it needs.
 */
export function createServices(config: Config, store: Store, clock: Clock = systemClock) {
  const usage = createUsageRepository(store.db);
  const accounts = createAccountService({
    accounts: createAccountRepository(store.db),
    usage,
    clock,
    defaultDailyLimit: config.TYCHE_DAILY_LIMIT,
  });
  const quota = createQuotaService({ usage, clock });
  return { accounts, quota, clock };
}

export type Services = ReturnType<typeof createServices>;
