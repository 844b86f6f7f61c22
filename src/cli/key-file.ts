import { existsSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { type Io, UsageError } from './command.ts';

/** The FILE to write a key to, or undefined (said on stderr) when it exists: a key never overwrites. */
export function newKeyFile(positionals: string[], io: Io, command: string): string | undefined {
  const [file] = positionals;
  if (!file || positionals.length !== 1) throw new UsageError('give exactly one FILE to write');
  const path = resolve(file);
  if (!existsSync(path)) return path;
  io.err(`tyche ${command}: ${path} exists already: give a new file name`);
  return undefined;
}

/**
 * The FILE an export writes the store's key to, or the exit code when there is none: 1 when FILE
 * exists, 2 when the key already comes from `variable`'s file (the store's copy is not the one in use).
 */
export function exportKeyFile(
  positionals: string[],
  io: Io,
  command: string,
  from: { key: string; variable: string; configured: boolean },
): string | number {
  const path = newKeyFile(positionals, io, command);
  if (path === undefined) return 1;
  if (!from.configured) return path;
  io.err(`tyche ${command}: the ${from.key} already comes from ${from.variable}`);
  return 2;
}

/**
 * Writes a base64url Ed25519 seed, the format every key file variable reads: readable by its
 * owner only, and `wx` so a file that appeared meanwhile is not replaced. `id` goes to stdout,
 * `told` (what the file is for) to stderr.
 */
export function writeKeyFile(path: string, seed: string, io: Io, id: string, told: string): number {
  writeFileSync(path, `${seed}\n`, { mode: 0o600, flag: 'wx' });
  io.out(id);
  io.err(told);
  return 0;
}
