import { setTimeout as sleep } from 'node:timers/promises';
import { configFromEnv } from '../config.ts';
import { createSigningKey, type SigningKey, signingKeySecret } from '../signing/certificate-crypto.ts';
import { ConfiguredKeyError, LEASE_MS, REFRESH_MS, type Signer } from '../signing/signer.ts';
import type { Command, Io } from './command.ts';
import { keyFileCommands } from './key-file.ts';
import { listCommand } from './list-command.ts';
import { withServices } from './store-session.ts';

/** How long `rotate --wait` waits for the replaced key's leases to run out before it gives up. */
const WAIT_LIMIT_MS = 4 * LEASE_MS;

/**
 * Retires the replaced keys as soon as no process holds a lease on them, waiting out each lease
 * (at most WAIT_LIMIT_MS); returns each replaced key's retirement time, absent when still in use.
 */
async function retireWhenUnused(signer: Signer, replaced: string[]): Promise<Map<string, string>> {
  const deadline = Date.now() + WAIT_LIMIT_MS;
  for (;;) {
    const { waiting } = await signer.retireUnused();
    const held = waiting.filter((w) => replaced.includes(w.kid));
    if (held.length === 0 || Date.now() >= deadline) break;
    const until = Math.max(...held.map((w) => w.until));
    await sleep(Math.min(Math.max(until - Date.now(), 0) + 100, deadline - Date.now()));
  }
  const retired = new Map<string, string>();
  for (const key of await signer.publicKeys()) {
    if (replaced.includes(key.kid) && key.retired_at !== null) retired.set(key.kid, key.retired_at);
  }
  return retired;
}

export const signingKeyRotate: Command = {
  name: 'signing-key rotate',
  usage: 'signing-key rotate [--wait] [--json]',
  summary: `Replace the generated certificate signing key by a new one, announced in the transparency log
at once. Every running process signs with the new key within ${REFRESH_MS / 1000} seconds; the old key stays
published, keeps verifying everything it signed, and is retired in the log once no process can sign
with it any more (at most ${LEASE_MS / 1000} seconds after a process last read it). With --wait, waits for that
retirement and prints it; exit 1 when a process still holds the old key after ${WAIT_LIMIT_MS / 1000} seconds.
A key from TYCHE_SIGNING_KEY or TYCHE_SIGNING_KEY_FILE is rotated by configuring a new one instead.`,
  options: { wait: { type: 'boolean' }, json: { type: 'boolean' } },
  async run({ values }, io) {
    try {
      const done = await withServices(io.env, async ({ signer }) => {
        const rotated = await signer.rotate();
        const retired = values.wait ? await retireWhenUnused(signer, rotated.replaced) : undefined;
        return { ...rotated, retired };
      });
      const { kid, replaced, retired } = done;
      const held = retired ? replaced.filter((r) => !retired.has(r)) : [];
      if (values.json) {
        io.out(
          JSON.stringify({ kid, replaced, ...(retired ? { retired: Object.fromEntries(retired) } : {}) }),
        );
      } else if (!retired) {
        io.out(
          `Signing with ${kid} from now on; ${replaced.join(', ') || 'no key'} retires once every process has moved to it, and stays published.`,
        );
      } else {
        const when = [...retired].map(([old, at]) => `${old} retired at ${at}`);
        io.out(`Signing with ${kid} from now on; ${when.join(', ') || 'no key replaced'}.`);
      }
      if (held.length === 0) return 0;
      io.err(
        `tyche signing-key rotate: ${held.join(', ')} is still leased by a running process (one configured with it in TYCHE_SIGNING_KEY_FILE?); it retires once that process stops or moves`,
      );
      return 1;
    } catch (error) {
      if (!(error instanceof ConfiguredKeyError)) throw error;
      io.err(`tyche signing-key rotate: ${error.message}`);
      return 2;
    }
  },
};

export const signingKeyList = listCommand({
  name: 'signing-key list',
  summary:
    'List every certificate signing key by kid, with where its secret lives, when it was first used and when it retired. Never prints a secret.',
  list: async ({ signer }) => {
    // Listing reads the key as a start would, and retires replaced keys no process holds any more.
    await signer.current();
    await signer.retireUnused();
    return signer.publicKeys();
  },
  json: ({ kid, x, created_at, retired_at }) => ({ kid, x, created_at, retired_at }),
  columns: [
    ['KID', (k) => k.kid],
    ['CREATED', (k) => k.created_at],
    ['RETIRED', (k) => k.retired_at ?? '-'],
  ],
});

const signingKey = keyFileCommands<SigningKey>({
  group: 'signing-key',
  summaries: {
    export: `Write the generated signing key in use to FILE (a new file, mode 600), so it can be kept apart
from the database and configured with TYCHE_SIGNING_KEY_FILE: the same key goes on signing, announced
in the log once, and a lost database no longer takes it along.`,
    generate: `Write a new Ed25519 signing key to FILE (a new file, mode 600) for TYCHE_SIGNING_KEY_FILE, and
print its kid. Keep a copy of FILE apart from the database: with it, a lost database does not take
the key that signed every certificate with it. Needs no store.`,
  },
  fileVariable: 'TYCHE_SIGNING_KEY_FILE',
  variables: ['TYCHE_SIGNING_KEY', 'TYCHE_SIGNING_KEY_FILE'],
  key: 'key in use',
  // Either variable leaves the key in TYCHE_SIGNING_KEY once the configuration is read.
  configured: (config) => config.TYCHE_SIGNING_KEY !== undefined,
  stored: ({ signer }) => signer.current(),
  fresh: () => createSigningKey(),
  written: (key) => ({ secret: signingKeySecret(key), id: key.kid, what: `key ${key.kid}` }),
  next: { export: 'Start the server', generate: 'Start the server' },
});

export const signingKeyExport = signingKey.export;
export const signingKeyGenerate = signingKey.generate;
