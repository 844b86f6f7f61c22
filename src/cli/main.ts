import { readFileSync } from 'node:fs';
import { ConfigError } from '../config.ts';
import { LogKeyMismatchError } from '../log/log-key.ts';
import { StoreUnavailableError } from '../store/store.ts';
import { WitnessKeyMismatchError } from '../witness/witness-key.ts';
import { accountsPlan } from './accounts.commands.ts';
import { backup } from './backup.command.ts';
import { type Command, helpText, type Io, parseOptions, UsageError } from './command.ts';
import { jobsList, jobsRetry } from './jobs.commands.ts';
import { keysCreate, keysList, keysRevoke } from './keys.commands.ts';
import { logExport } from './log/log-export.ts';
import { logVerify } from './log.commands.ts';
import { logKeyExport, logKeyGenerate } from './log-key.commands.ts';
import { migrate, serve } from './serve.commands.ts';
import {
  signingKeyExport,
  signingKeyGenerate,
  signingKeyList,
  signingKeyRotate,
} from './signing-key.commands.ts';
import { verify } from './verify.command.ts';
import { witness } from './witness.command.ts';
import { witnessKeyExport, witnessKeyGenerate } from './witness-key.commands.ts';

export const COMMANDS: Command[] = [
  serve,
  migrate,
  keysCreate,
  keysList,
  keysRevoke,
  accountsPlan,
  jobsList,
  jobsRetry,
  signingKeyRotate,
  signingKeyList,
  signingKeyGenerate,
  signingKeyExport,
  backup,
  verify,
  logVerify,
  logExport,
  logKeyGenerate,
  logKeyExport,
  witness,
  witnessKeyGenerate,
  witnessKeyExport,
];

function overview(commands = COMMANDS): string {
  const lines = commands.map((c) => `  tyche ${c.usage}`);
  return `Tyche: provably fair random values and giveaway draws.\n\nCommands:\n${lines.join('\n')}\n\nRun tyche COMMAND --help for details. Settings come from the environment (see README).`;
}

const isHelp = (arg: string | undefined) => arg === '--help' || arg === '-h' || arg === 'help';

/** Runs one command line and returns the exit code; never exits the process itself. */
export async function runCli(argv: string[], io: Io): Promise<number> {
  const [first, second] = argv;
  if (!first || isHelp(first)) {
    io.out(overview());
    return first ? 0 : 2;
  }
  if (first === '--version' || first === '-V' || first === 'version') {
    io.out(`tyche ${version()}`);
    return 0;
  }
  const command =
    COMMANDS.find((c) => c.name === `${first} ${second}`) ?? COMMANDS.find((c) => c.name === first);
  if (!command) {
    // A group's name alone (`tyche keys`) lists that group's commands.
    const group = COMMANDS.filter((c) => c.name.startsWith(`${first} `));
    if (group.length > 0 && (second === undefined || isHelp(second))) {
      io[second ? 'out' : 'err'](overview(group));
      return second ? 0 : 2;
    }
    io.err(
      `tyche: unknown command "${argv.slice(0, 2).join(' ')}"\n\n${overview(group.length > 0 ? group : COMMANDS)}`,
    );
    return 2;
  }
  const rest = argv.slice(command.name.split(' ').length);
  try {
    const args = parseOptions(command.options, rest);
    if (args.values.help) {
      io.out(helpText(command));
      return 0;
    }
    return await command.run(args, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`tyche ${command.name}: ${error.message}\nUsage: tyche ${command.usage}`);
      return 2;
    }
    // A key file that is not the store's key is a setting to change, like a bad value.
    if (
      error instanceof ConfigError ||
      error instanceof LogKeyMismatchError ||
      error instanceof WitnessKeyMismatchError
    ) {
      io.err(`tyche: ${error.message}`);
      return 2;
    }
    if (error instanceof StoreUnavailableError) {
      io.err(`tyche: ${error.message}`);
      return 1;
    }
    io.err(`tyche ${command.name}: ${(error as Error).message}`);
    return 1;
  }
}

/** The version in package.json, which is what a release is tagged with. */
export function version(): string {
  const manifest = new URL('../../package.json', import.meta.url);
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
}

export async function main(): Promise<void> {
  const io: Io = {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
    env: process.env,
  };
  process.exitCode = await runCli(process.argv.slice(2), io);
}

if (import.meta.main) await main();
