import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../src/cli/main.ts';
import { createSigningKey, signingKeyFromSecret } from '../src/giveaways/certificate-crypto.ts';
import { fakeLog } from '../test/helpers/fake-log.ts';
import type { BenchResult } from './result.ts';

const ENTRIES = 100_000;

export const LOG_VERIFY_READING = `The log is served from memory on loopback: one key announcement, then seals signed by that
key (about 350 bytes each, a third of a real seal, so parsing weighs a little less than on a real
log; the signature check, the largest cost, is the same). The time covers the whole command: the
checkpoint, 100 pages of 1000 entries (four requests in flight), for each entry the canonical-form,
kind, hash and Ed25519 checks (node:crypto), the tree rebuilt and compared with the checkpoint.`;

/** \`tyche log verify\` over a log of 100 000 entries (issue target: under a minute). */
export async function benchLogVerify(): Promise<BenchResult[]> {
  const seed = randomBytes(32);
  const log = fakeLog('bench.example/log', signingKeyFromSecret(seed), seed);
  const signer = createSigningKey();
  log.announce(signer);
  for (let i = 1; i < ENTRIES; i++) {
    log.seal(signer, `s_${i}`, `G${i}`, `owner_${i % 997}`, 1_000_000 + i);
  }
  const url = await log.listen();
  const env = { XDG_STATE_HOME: mkdtempSync(join(tmpdir(), 'tyche-bench-state-')) };
  const started = performance.now();
  const code = await runCli(['log', 'verify', url], { out: () => {}, err: () => {}, env });
  const seconds = (performance.now() - started) / 1000;
  await log.close();
  if (code !== 0) throw new Error(`tyche log verify exited ${code} on a clean log`);
  return [
    {
      name: `tyche log verify, ${ENTRIES.toLocaleString('en')} entries`,
      value: Number(seconds.toFixed(1)),
      unit: 's',
      target: '< 60 s',
      met: seconds < 60,
      notes: `${Math.round(ENTRIES / seconds).toLocaleString('en')} entries/s`,
    },
  ];
}
