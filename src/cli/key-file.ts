import { existsSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { type Config, configFromEnv } from '../config.ts';
import type { Services } from '../services.ts';
import type { Store } from '../store/store.ts';
import { type Command, type Io, UsageError } from './command.ts';
import { withServices } from './store-session.ts';

/** The FILE to write a key to, or undefined (said on stderr) when it exists: a key never overwrites. */
function newKeyFile(positionals: string[], io: Io, command: string): string | undefined {
  const [file] = positionals;
  if (!file || positionals.length !== 1) throw new UsageError('give exactly one FILE to write');
  const path = resolve(file);
  if (!existsSync(path)) return path;
  io.err(`tyche ${command}: ${path} exists already: give a new file name`);
  return undefined;
}

/** A key file's content and what the commands print of it. */
export interface WrittenKey {
  /** The base64url Ed25519 seed: the format every key file variable reads. */
  secret: string;
  /** Printed on stdout: the kid, or the verifier key that others configure. */
  id: string;
  /** How stderr names it: `log key <kid>`. */
  what: string;
}

/**
 * A key the store holds unless a file names it (the signing key, the log key, the witness key):
 * what its `export` and `generate` commands need to know of it.
 */
export interface KeyFileKind<K> {
  /** The command group: `log-key` makes `log-key export` and `log-key generate`. */
  group: string;
  summaries: { export: string; generate: string };
  /** The variable a written file is configured with. */
  fileVariable: string;
  /** Every variable that configures the key from outside the store, as an export's refusal names them. */
  variables: readonly string[];
  /** How an export's refusal names the key: `the log key already comes from …`. */
  key: string;
  /** Whether the key in use comes from a variable rather than the store. */
  configured(config: Config): boolean;
  /** The key the store holds (made on first use, as a start would). */
  stored(services: Services, store: Store, config: Config): Promise<K>;
  fresh(config: Config): K;
  written(key: K): WrittenKey;
  /** What the operator does next with the file, after an export and after a generate. */
  next: { export: string; generate: string };
}

/**
 * Writes the key readable by its owner only, and `wx` so a file that appeared meanwhile is not
 * replaced; its id goes to stdout, what the file is for to stderr.
 */
function writeKeyFile<K>(kind: KeyFileKind<K>, path: string, key: K, io: Io, next: string): number {
  const { secret, id, what } = kind.written(key);
  writeFileSync(path, `${secret}\n`, { mode: 0o600, flag: 'wx' });
  io.out(id);
  io.err(`Wrote the ${what} to ${path}. ${next} with ${kind.fileVariable}=${path}.`);
  return 0;
}

/**
 * `export FILE` writes the store's key, refused with 2 while a variable configures another (the
 * store's copy is not the one in use); `generate FILE` writes a new one and needs no store. Both
 * exit 1 when FILE exists.
 */
export function keyFileCommands<K>(kind: KeyFileKind<K>): { export: Command; generate: Command } {
  const command = (verb: 'export' | 'generate', run: (path: string, io: Io) => Promise<number>): Command => {
    const name = `${kind.group} ${verb}`;
    return {
      name,
      usage: `${name} FILE`,
      summary: kind.summaries[verb],
      async run({ positionals }, io) {
        const path = newKeyFile(positionals, io, name);
        return path === undefined ? 1 : run(path, io);
      },
    };
  };
  return {
    export: command('export', async (path, io) => {
      if (kind.configured(configFromEnv(io.env))) {
        io.err(
          `tyche ${kind.group} export: the ${kind.key} already comes from ${kind.variables.join(' or ')}`,
        );
        return 2;
      }
      const key = await withServices(io.env, (services, store, config) =>
        kind.stored(services, store, config),
      );
      return writeKeyFile(kind, path, key, io, kind.next.export);
    }),
    generate: command('generate', async (path, io) => {
      // Validates the environment like every command, although no store is opened.
      const unset = Object.fromEntries(kind.variables.map((name) => [name, undefined]));
      const config = configFromEnv({ ...io.env, ...unset });
      return writeKeyFile(kind, path, kind.fresh(config), io, kind.next.generate);
    }),
  };
}
