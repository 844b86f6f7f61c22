import { PLANS, type Plan } from '../accounts/account.repository.ts';
import { type Command, parsePositiveInteger, UsageError } from './command.ts';
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

export const keysList: Command = {
  name: 'keys list',
  usage: 'keys list [--json]',
  summary:
    'List every API key by prefix, with its account, plan, label, limit, usage today and state. Never prints a key.',
  options: { json: { type: 'boolean' } },
  async run({ values }, io) {
    const keys = await withServices(io.env, ({ accounts }) => accounts.listKeys());
    if (values.json) {
      io.out(JSON.stringify(keys));
      return 0;
    }
    if (keys.length === 0) {
      io.err('No keys yet. Create one with: tyche keys create');
      return 0;
    }
    io.out(['PREFIX', 'PLAN', 'TODAY', 'LIMIT', 'STATE', 'CREATED', 'LABEL'].join('\t'));
    for (const k of keys) {
      const state = k.revoked_at ? 'revoked' : 'active';
      io.out(
        [k.key_prefix, k.plan, k.requests_today, k.daily_limit, state, k.created_at, k.label ?? ''].join(
          '\t',
        ),
      );
    }
    return 0;
  },
};

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
