// tyche-verify.mjs: the verifier of `tyche verify`, bundled into one file a participant runs with
// plain Node >= 20 and nothing installed (GET /tyche-verify.mjs). Only the program name and the
// default server differ: the server that served this file, unless PUBLIC_BASE_URL says otherwise.

import { UsageError } from '../command.ts';
import { parseVerifyArgs, runVerify } from './verify-cli-core.ts';
import { EXIT_USAGE, VERIFY_SUMMARY, verifyUsage } from './verify-cli-usage.ts';

// Replaced when the file is bundled: the public address of the server that serves it.
declare const TYCHE_SERVED_BY: string | undefined;

const PROGRAM = 'tyche-verify.mjs';
const servedBy = typeof TYCHE_SERVED_BY === 'string' ? TYCHE_SERVED_BY : 'http://127.0.0.1:8080';
const usage = `Usage: ${verifyUsage(`node ${PROGRAM}`, `       node ${PROGRAM}`)}`;

async function main(argv: string[]): Promise<number> {
  const major = Number(process.versions.node.split('.')[0]);
  if (major < 20) {
    process.stderr.write(`${PROGRAM}: Node.js 20 or newer is needed, this is ${process.version}\n`);
    return EXIT_USAGE;
  }
  const io = {
    out: (line: string) => process.stdout.write(`${line}\n`),
    err: (line: string) => process.stderr.write(`${line}\n`),
    env: process.env,
    baseUrl: () => process.env.PUBLIC_BASE_URL || servedBy,
  };
  try {
    const args = parseVerifyArgs(argv);
    if (args.help) {
      io.out(`${VERIFY_SUMMARY}\n\n${usage}\nDefault server: ${servedBy}`);
      return 0;
    }
    return await runVerify(args, io, PROGRAM);
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`${PROGRAM}: ${error.message}\n${usage}`);
      return EXIT_USAGE;
    }
    io.err(`${PROGRAM}: ${(error as Error).message}`);
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
