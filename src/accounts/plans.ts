export type Plan = 'free' | 'pro' | 'business';
export const PLANS: readonly Plan[] = ['free', 'pro', 'business'];

/** The rule the API and the bot share: keys, the API and the giveaway console need Business. */
export const hasBusinessAccess = (plan: string): boolean => plan === 'business';
