import { configFromEnv } from '../config.ts';
import type { Command } from './command.ts';
import { runVerify, VERIFY_OPTIONS, VERIFY_SUMMARY, verifyUsage } from './verify/verify-cli-core.ts';

/** `tyche verify`: the verifier tyche-verify.mjs also bundles, with PUBLIC_BASE_URL as the default server. */
export const verify: Command = {
  name: 'verify',
  usage: verifyUsage('verify', '  tyche verify'),
  summary: VERIFY_SUMMARY,
  options: VERIFY_OPTIONS,
  run: (args, io) =>
    runVerify(args, { ...io, baseUrl: () => configFromEnv(io.env).publicBaseUrl }, 'tyche verify'),
};
