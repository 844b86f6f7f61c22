import { type Command, parsePositiveInteger, UsageError } from './command.ts';
import { parsePlan } from './keys.commands.ts';
import { withServices } from './store-session.ts';

export const accountsPlan: Command = {
  name: 'accounts plan',
  usage: 'accounts plan TELEGRAM_ID PLAN [--json]',
  summary:
    'Set the plan (free, pro or business) of a Telegram user’s account, creating the account if missing. Applies from the next request.',
  options: { json: { type: 'boolean' } },
  async run({ positionals, values }, io) {
    if (positionals.length !== 2) throw new UsageError('give TELEGRAM_ID and PLAN');
    const telegramId = parsePositiveInteger('TELEGRAM_ID', positionals[0])!;
    const plan = parsePlan(positionals[1])!;
    const { account, created } = await withServices(io.env, ({ accounts }) =>
      accounts.setPlan(telegramId, plan),
    );
    if (values.json)
      io.out(JSON.stringify({ account_id: account.id, telegram_id: telegramId, plan, created }));
    else
      io.out(
        `${created ? 'Created account' : 'Account'} ${account.id} of Telegram user ${telegramId} is now on ${plan}`,
      );
    return 0;
  },
};
