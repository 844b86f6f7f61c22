import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { LogPin } from '../../proof/log-gather.ts';

/** `$XDG_STATE_HOME/tyche`, else `~/.local/state/tyche` (CONTRACT §8). */
export function stateDir(env: Record<string, string | undefined>): string {
  const base = env.XDG_STATE_HOME || join(env.HOME || homedir(), '.local', 'state');
  return join(base, 'tyche');
}

/** One file per origin; every character outside [A-Za-z0-9._-] written as %XX, so any origin is a name. */
export function pinFile(env: Record<string, string | undefined>, origin: string): string {
  const name = [...new TextEncoder().encode(origin)]
    .map((b) =>
      /[A-Za-z0-9._-]/.test(String.fromCharCode(b))
        ? String.fromCharCode(b)
        : `%${b.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');
  return join(stateDir(env), 'logs', `${name}.json`);
}

export function readPin(env: Record<string, string | undefined>, origin: string): LogPin | undefined {
  try {
    const pin = JSON.parse(readFileSync(pinFile(env, origin), 'utf8')) as LogPin;
    return pin.origin === origin && typeof pin.log_key === 'string' ? pin : undefined;
  } catch {
    return undefined;
  }
}

/** Written to a temporary file and renamed, so a crash never leaves half a pin. */
export function writePin(env: Record<string, string | undefined>, pin: LogPin): void {
  const file = pinFile(env, pin.origin);
  mkdirSync(join(stateDir(env), 'logs'), { recursive: true });
  writeFileSync(`${file}.tmp`, `${JSON.stringify(pin, null, 2)}\n`);
  renameSync(`${file}.tmp`, file);
}
