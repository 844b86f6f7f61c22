import { configFromEnv } from '../config.ts';
import type { Command } from './command.ts';
import { VERIFY_OPTIONS, VERIFY_SUMMARY, verifyUsage } from './verify/verify-cli-usage.ts';

/** `tyche verify`: the verifier tyche-verify.mjs also bundles, with PUBLIC_BASE_URL as the default server. */
export const verify: Command = {
  name: 'verify',
  usage: verifyUsage('verify', '  tyche verify'),
  summary: VERIFY_SUMMARY,
  options: VERIFY_OPTIONS,
  // The verifier (and the RFC 3161 code under it) is loaded when the command runs, not by every `tyche`.
  run: async (args, io) => {
    const { runVerify } = await import('./verify/verify-cli-core.ts');
    return runVerify(args, { ...io, baseUrl: () => configFromEnv(io.env).publicBaseUrl }, 'tyche verify');
  },
};
