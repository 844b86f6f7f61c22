import { type ParseArgsConfig, parseArgs } from 'node:util';

export class UsageError extends Error {
  override name = 'UsageError';
}

export interface Io {
  out(line: string): void;
  err(line: string): void;
  env: NodeJS.ProcessEnv;
}

export interface Command {
  /** e.g. `keys create` */
  name: string;
  usage: string;
  summary: string;
  options?: ParseArgsConfig['options'];
  run(
    args: { values: Record<string, string | boolean | undefined>; positionals: string[] },
    io: Io,
  ): Promise<number>;
}

/** The command line against `options` and --help; anything unknown or malformed is a UsageError. */
export function parseOptions(options: ParseArgsConfig['options'], argv: string[]) {
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
    return { values: values as Record<string, string | boolean | undefined>, positionals };
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

export function helpText(command: Command): string {
  return `${command.summary}\n\nUsage: tyche ${command.usage}`;
}

export function parsePositiveInteger(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^[0-9]+$/.test(raw) || !Number.isSafeInteger(Number(raw)) || Number(raw) < 1) {
    throw new UsageError(`${name} must be a positive integer, got ${JSON.stringify(raw)}`);
  }
  return Number(raw);
}
