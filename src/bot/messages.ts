import type { Plan } from '../accounts/account.repository.ts';
import type { KeySummary } from '../accounts/account.service.ts';
import { escapeHtml } from '../html-escape.ts';
import type { DrawnEvent, DrawnWinner, JoinResult, PostedGiveaway } from './giveaway-port.ts';

/** Every text the bot sends, in Telegram's HTML parse mode; user-supplied text is escaped. */

export const COMMANDS = [
  { command: 'start', description: 'Create your Tyche account' },
  { command: 'plan', description: 'Your plan and how to upgrade' },
  { command: 'newkey', description: 'Create an API key (Business plan): /newkey [label]' },
  { command: 'keys', description: 'List your API keys' },
  { command: 'revoke', description: 'Revoke an API key: /revoke <prefix>' },
  { command: 'post', description: 'Post a giveaway with a Join button: /post <giveaway id> <@channel>' },
  { command: 'help', description: 'What this bot does' },
] as const;

const PLAN_NAMES: Record<Plan, string> = { free: 'Free', pro: 'Pro', business: 'Business' };

export function planName(plan: string): string {
  return PLAN_NAMES[plan as Plan] ?? plan;
}

export function welcome(created: boolean, firstName: string | undefined): string {
  const name = firstName ? `, ${escapeHtml(firstName)}` : '';
  const intro = created
    ? `Welcome to Tyche${name}! Your account is ready, on the Free plan.`
    : `Welcome back${name}! Your Tyche account is ready.`;
  return `${intro}\n\n${help()}`;
}

export function help(): string {
  const lines = COMMANDS.map((c) => `/${c.command} — ${escapeHtml(c.description)}`);
  return [
    'Tyche draws giveaway winners with verifiable randomness: every draw has a public certificate anyone can check.',
    '',
    ...lines,
    '',
    'Join a giveaway by opening its link (t.me/…?start=g_…) or pressing its Join button.',
  ].join('\n');
}

export function planInfo(plan: string, telegramId: number): string {
  const current = `Your plan: <b>${planName(plan)}</b>.`;
  if (plan === 'business') {
    return `${current}\nYou have API access: create a key with /newkey [label], list them with /keys.`;
  }
  return [
    current,
    'API keys and the API itself need the <b>Business</b> plan.',
    `To upgrade, ask the Tyche operator to run:\n<code>tyche accounts plan ${telegramId} business</code>`,
    'The change applies at once; then use /newkey.',
  ].join('\n');
}

export function businessOnly(plan: string): string {
  return `API keys need the Business plan; you are on ${planName(plan)}. /plan explains how to upgrade.`;
}

export function newKey(key: string, prefix: string, label: string | null, dailyLimit: number): string {
  return [
    '<b>Your new API key</b> — shown this once, never again:',
    '',
    `<code>${key}</code>`,
    '',
    `Prefix: <code>${prefix}</code>${label ? ` · Label: ${escapeHtml(label)}` : ''} · Daily limit: ${dailyLimit}`,
    'Store it in a password manager now, then delete this message. Send it as <code>Authorization: Bearer &lt;key&gt;</code>.',
    'Lost it? /revoke the prefix and create a new one.',
  ].join('\n');
}

export function keyList(keys: readonly KeySummary[]): string {
  const active = keys.filter((k) => k.revoked_at === null);
  if (active.length === 0) return 'You have no active API keys. Create one with /newkey [label].';
  const lines = active.map((k) =>
    [
      `• <code>${k.key_prefix}</code>${k.label ? ` — ${escapeHtml(k.label)}` : ''}`,
      `  created ${when(k.created_at)} · last used ${k.last_used_at ? when(k.last_used_at) : 'never'}`,
      `  today ${k.requests_today} of ${k.daily_limit} requests`,
    ].join('\n'),
  );
  return [
    `Your API keys (${active.length}):`,
    '',
    ...lines,
    '',
    'Revoke one with /revoke &lt;prefix&gt;.',
  ].join('\n');
}

export function confirmRevoke(key: KeySummary): string {
  const label = key.label ? ` (${escapeHtml(key.label)})` : '';
  return `Revoke key <code>${key.key_prefix}</code>${label}? Requests with it will be refused at once. This cannot be undone.`;
}

export const revokeUsage = 'Usage: /revoke &lt;prefix&gt; — the prefixes are listed by /keys.';
export const noSuchKey = (prefix: string) =>
  `You have no active key with prefix <code>${escapeHtml(prefix)}</code>. See /keys.`;
export const revoked = (prefix: string) => `Key <code>${escapeHtml(prefix)}</code> is revoked.`;
export const revokeCancelled = (prefix: string) => `Kept key <code>${escapeHtml(prefix)}</code>.`;
export const labelTooLong = 'A key label can have at most 100 characters.';

export function joined(result: JoinResult): string {
  const title = `“${escapeHtml(result.giveaway.title)}”`;
  const first =
    result.status === 'duplicate'
      ? `You are already in ${title}, with entry number ${result.entryNumber}. Good luck!`
      : `You joined ${title}. Your entry number is ${result.entryNumber}. Good luck!`;
  if (!result.receiptUrl) return first;
  // The link's fragment holds the entrant's salt: the page checks the entry in the browser.
  return `${first}\n\n<a href="${escapeHtml(result.receiptUrl)}">Your receipt</a>: keep it to check that you are in the sealed list and whether you won.`;
}

/** Plain text: callback answers (pop-ups) do not take HTML. */
export function joinedPopup(result: JoinResult): string {
  const title = `“${result.giveaway.title}”`;
  return result.status === 'duplicate'
    ? `You are already in ${title} (entry #${result.entryNumber}).`
    : `You joined ${title}! Your entry number is ${result.entryNumber}.`;
}

export const giveawayNotFound = 'There is no such giveaway. Check the link you followed.';
export const giveawayCompleted = 'This giveaway has already been drawn and no longer accepts entries.';
export const giveawaySealed =
  'Entries to this giveaway are closed: its list of entrants is sealed for the draw.';
export const somethingWentWrong = 'Something went wrong on our side. Please try again in a moment.';

export function winnerNotice(event: DrawnEvent, winner: DrawnWinner): string {
  return [
    `🎉 You are winner #${winner.position} of “${escapeHtml(event.title)}”!`,
    '',
    `The draw is public and verifiable: ${escapeHtml(event.verifyUrl)}`,
  ].join('\n');
}

function when(iso: string): string {
  return `${iso.slice(0, 16).replace('T', ' ')} UTC`;
}

export const postUsage =
  'Usage: /post &lt;giveaway id&gt; &lt;@channel&gt; — the bot must be an admin of the channel who may post.';
export const postNotYours =
  'You have no giveaway with that id. Giveaways belong to the account of your API keys.';

/** The channel post itself: its Join button enters whoever presses it. */
export function channelPost(giveaway: PostedGiveaway): string {
  const winners = giveaway.winners_count === 1 ? '1 winner' : `${giveaway.winners_count} winners`;
  return [
    `<b>${escapeHtml(giveaway.title)}</b>`,
    '',
    `${winners}, drawn with verifiable randomness: every draw gets a public certificate anyone can check.`,
    'Press Join to enter.',
  ].join('\n');
}

export const posted = (channel: string) => `Posted to ${escapeHtml(channel)} with a Join button.`;
export const postFailed = (channel: string) =>
  `Telegram did not accept the post to ${escapeHtml(channel)}. Add this bot to the channel as an admin who may post messages, then try again.`;
