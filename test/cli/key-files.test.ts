import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { runTyche } from '../helpers/cli.ts';

describe('key files at the command line', () => {
  test('--help lists the log-key and witness-key commands, and each explains itself', async () => {
    const overview = await runTyche(['--help'], {});
    for (const usage of [
      'log-key generate FILE',
      'log-key export FILE',
      'witness-key generate FILE',
      'witness-key export FILE',
    ]) {
      assert.ok(overview.stdout.includes(`tyche ${usage}`), usage);
      const help = await runTyche([...usage.split(' ').slice(0, 2), '--help'], {});
      assert.equal(help.code, 0, usage);
      assert.ok(help.stdout.endsWith(`Usage: tyche ${usage}\n`), usage);
    }
    const group = await runTyche(['log-key', '--help'], {});
    assert.match(group.stdout, /log-key generate FILE\n {2}tyche log-key export FILE/);
    const usage = await runTyche(['witness-key', 'generate'], {});
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /give exactly one FILE to write/);
  });

  test('tyche backup names the key files it does not copy', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tyche-backup-keys-'));
    try {
      const env = { DATA_DIR: join(dir, 'data') };
      const files = {
        TYCHE_SIGNING_KEY_FILE: join(dir, 'signing.key'),
        TYCHE_LOG_KEY_FILE: join(dir, 'log.key'),
        WITNESS_KEY_FILE: join(dir, 'witness.key'),
      };
      assert.equal((await runTyche(['signing-key', 'generate', files.TYCHE_SIGNING_KEY_FILE], env)).code, 0);
      assert.equal((await runTyche(['log-key', 'generate', files.TYCHE_LOG_KEY_FILE], env)).code, 0);
      assert.equal((await runTyche(['witness-key', 'generate', files.WITNESS_KEY_FILE], env)).code, 0);
      assert.equal((await runTyche(['migrate'], { ...env, ...files })).code, 0);

      const plain = await runTyche(['backup', join(dir, 'plain.sqlite')], env);
      assert.equal(plain.code, 0, plain.stderr);
      assert.equal(plain.stderr, '', 'keys kept in the database are in the backup: nothing to add');

      const res = await runTyche(['backup', join(dir, 'with-keys.sqlite')], { ...env, ...files });
      assert.equal(res.code, 0, res.stderr);
      assert.match(res.stdout, /^Backed up .* to .*with-keys\.sqlite /);
      assert.equal(
        res.stderr,
        `tyche backup: key files are not copied: keep a copy of TYCHE_SIGNING_KEY_FILE=${files.TYCHE_SIGNING_KEY_FILE}, TYCHE_LOG_KEY_FILE=${files.TYCHE_LOG_KEY_FILE}, WITNESS_KEY_FILE=${files.WITNESS_KEY_FILE} apart from the database backups\n`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
