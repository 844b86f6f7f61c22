import { PLANS, type Plan } from '../accounts/plans.ts';
import { type Command, parsePositiveInteger, UsageError } from './command.ts';
import { listCommand } from './list-command.ts';
import { withServices } from './store-session.ts';

export function parsePlan(raw: string | undefined): Plan | undefined {
  if (raw === undefined) return undefined;
  if (!PLANS.includes(raw as Plan))
    throw new UsageError(`plan must be one of ${PLANS.join(', ')}, got ${JSON.stringify(raw)}`);
  return raw as Plan;
}

export const keysCreate: Command = {
  name: 'keys create',
  usage:
    'keys create [--plan free|pro|business] [--owner TELEGRAM_ID] [--label TEXT] [--daily-limit N] [--json]',
  summary:
    'Create an API key and print it once. Without --owner each call creates a new account with the plan (default business); with --owner the key joins that Telegram user’s account, created if missing, and --plan sets its plan.',
  options: {
    plan: { type: 'string' },
    owner: { type: 'string' },
    label: { type: 'string' },
    'daily-limit': { type: 'string' },
    json: { type: 'boolean' },
  },
  async run({ values }, io) {
    const plan = parsePlan(values.plan as string | undefined);
    const ownerTelegramId = parsePositiveInteger('--owner', values.owner as string | undefined);
    const dailyLimit = parsePositiveInteger('--daily-limit', values['daily-limit'] as string | undefined);
    const label = values.label as string | undefined;
    if (label !== undefined && label.length > 100)
      throw new UsageError('--label must be at most 100 characters');
    const created = await withServices(io.env, ({ accounts }) =>
      accounts.createKey({ plan, ownerTelegramId, label, dailyLimit }),
    );
    if (values.json) {
      const { key, key_prefix, plan: p, daily_limit, account_id } = created;
      io.out(JSON.stringify({ key, key_prefix, plan: p, daily_limit, account_id }));
    } else {
      io.out(created.key);
      io.err(
        `Created key ${created.key_prefix}… (plan ${created.plan}, ${created.daily_limit} requests/day, account ${created.account_id}).\nIt is shown only this once: store it now.`,
      );
    }
    return 0;
  },
};

export const keysList = listCommand({
  name: 'keys list',
  summary:
    'List every API key by prefix, with its account, plan, label, limit, usage today and state. Never prints a key.',
  list: ({ accounts }) => accounts.listKeys(),
  empty: 'No keys yet. Create one with: tyche keys create',
  columns: [
    ['PREFIX', (k) => k.key_prefix],
    ['PLAN', (k) => k.plan],
    ['TODAY', (k) => k.requests_today],
    ['LIMIT', (k) => k.daily_limit],
    ['STATE', (k) => (k.revoked_at ? 'revoked' : 'active')],
    ['CREATED', (k) => k.created_at],
    ['LABEL', (k) => k.label ?? ''],
  ],
});

export const keysRevoke: Command = {
  name: 'keys revoke',
  usage: 'keys revoke KEY_PREFIX',
  summary: 'Revoke the key with this 12-character prefix. It is refused from the next request on.',
  async run({ positionals }, io) {
    const [prefix] = positionals;
    if (!prefix || positionals.length !== 1)
      throw new UsageError('give exactly one KEY_PREFIX (see tyche keys list)');
    const revoked = await withServices(io.env, ({ accounts }) => accounts.revokeKey(prefix));
    if (!revoked) {
      io.err(`No active key has the prefix ${prefix} (see tyche keys list).`);
      return 1;
    }
    io.out(`Revoked ${prefix}`);
    return 0;
  },
};
