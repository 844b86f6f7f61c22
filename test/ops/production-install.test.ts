import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runProcess } from '../helpers/cli.ts';
import { START_FLAGS } from '../helpers/server-process.ts';
import { olderNode } from '../helpers/standalone-verifier.ts';

const root = new URL('../../', import.meta.url);
const manifest = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));
const BIN = fileURLToPath(new URL('bin/tyche.js', root));
const older = olderNode();
const ours = Number(process.versions.node.split('.')[0]);

test('npm start goes through the shim that checks the Node version first', () => {
  assert.equal(manifest.scripts.start, 'node --max-semi-space-size=8 bin/tyche.js serve');
  assert.equal(manifest.bin.tyche, 'bin/tyche.js');
  assert.equal(manifest.engines.node, '>=24');
});

test('the shim, the systemd unit in the docs and the servers that tests start give Node the flags npm start gives it', () => {
  const flags = START_FLAGS.join(' ');
  assert.ok(flags.length > 0);
  assert.equal(readFileSync(BIN, 'utf8').split('\n')[0], `#!/usr/bin/env -S node ${flags}`);
  const unit = readFileSync(new URL('docs/operations.md', root), 'utf8');
  assert.match(unit, new RegExp(`^ExecStart=/usr/bin/node ${flags} /opt/tyche/bin/tyche\\.js serve$`, 'm'));
});

test('on an older Node (a production install without the pinned Node 24) it names the requirement and exits 1', {
  skip: older.path === process.execPath ? `no Node older than ${ours} on this machine` : undefined,
}, async () => {
  const res = await runProcess(older.path, [BIN, 'serve'], { env: { PATH: process.env.PATH } });
  assert.equal(res.code, 1);
  assert.equal(res.stdout, '');
  assert.match(
    res.stderr,
    new RegExp(`^tyche: Node\\.js 24 or newer is required; this is ${older.version.replace(/\./g, '\\.')} `),
  );
});

test('the licence is Apache-2.0, in package.json and in LICENSE', () => {
  assert.equal(manifest.license, 'Apache-2.0');
  const text = readFileSync(new URL('LICENSE', root), 'utf8');
  assert.match(text, /^\s+Apache License\n\s+Version 2\.0, January 2004\n/);
  assert.match(text, /END OF TERMS AND CONDITIONS/);
});
