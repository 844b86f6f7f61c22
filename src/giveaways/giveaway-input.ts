// The input rules live in core/; this path stays for rooms outside giveaways/ that import it.
export * from './core/giveaway-input.ts';
