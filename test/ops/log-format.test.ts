import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, describe, test } from 'node:test';
import pino from 'pino';
import { ConfigError, createConfig } from '../../src/config.ts';
import { createLogger } from '../../src/server.ts';
import { prettyLogStream } from '../../src/shared/pretty-log.ts';
import { CLI } from '../helpers/cli.ts';

const TIME = /^\d{2}:\d{2}:\d{2}\.\d{3} /;

/** Collects what a pretty stream writes, one entry per line. */
function recorder(extra: { isTTY?: boolean; hasColors?: () => boolean } = {}) {
  const lines: string[] = [];
  return {
    lines,
    out: {
      ...extra,
      write(text: string) {
        lines.push(...text.split('\n').filter(Boolean));
        return true;
      },
    },
  };
}

const record = (fields: Record<string, unknown>) =>
  `${JSON.stringify({ level: 30, time: Date.now(), pid: 1, hostname: 'h', ...fields })}\n`;

describe('pretty log lines', () => {
  test('a request is one line: time, level, message, id, method, URL, status, duration', () => {
    const { lines, out } = recorder();
    const stream = prettyLogStream(out, { color: false });
    stream.write(
      record({
        reqId: 'r-1',
        req: { method: 'GET', url: '/verify/c_1', remoteAddress: '127.0.0.1' },
        res: { statusCode: 200 },
        responseTime: 3.0625,
        msg: 'request completed',
      }),
    );
    assert.equal(lines.length, 1);
    assert.match(lines[0], TIME);
    assert.equal(lines[0].replace(TIME, ''), 'INFO  request completed [r-1] GET /verify/c_1 200 3.1 ms');
  });

  test('other fields follow as key=value, an error with its type, message and where it was thrown', () => {
    const { lines, out } = recorder();
    const stream = prettyLogStream(out, { color: false });
    const err = {
      type: 'TypeError',
      message: 'bad "thing"',
      stack: 'TypeError: bad\n    at run (/app/x.ts:3:7)\n    at y',
    };
    stream.write(record({ level: 50, reqId: 'r-2', err, route: '/a b', count: 3, msg: 'request failed' }));
    stream.write(record({ level: 40, source: 'anu', nested: { a: [1] }, msg: 'randomness source failed' }));
    assert.equal(
      lines[0].replace(TIME, ''),
      'ERROR request failed [r-2] err="TypeError: bad \\"thing\\" (at run (/app/x.ts:3:7))" route="/a b" count=3',
    );
    assert.equal(lines[1].replace(TIME, ''), 'WARN  randomness source failed source=anu nested={"a":[1]}');
  });

  test('colours only the level, and only when the terminal takes colours; a line that is not JSON passes as is', () => {
    const { lines, out } = recorder();
    const stream = prettyLogStream(out, { color: true });
    stream.write(record({ level: 40, msg: 'careful' }) + 'plain text\n');
    assert.equal(lines[0].replace(TIME, ''), '\u001b[33mWARN \u001b[39m careful');
    assert.equal(lines[1], 'plain text');
  });
});

describe('LOG_FORMAT', () => {
  test('auto by default; json and pretty force a format; anything else is refused', () => {
    assert.equal(createConfig({}).LOG_FORMAT, 'auto');
    assert.equal(createConfig({ LOG_FORMAT: 'json' }).LOG_FORMAT, 'json');
    assert.throws(
      () => createConfig({ LOG_FORMAT: 'text' }),
      (error: unknown) =>
        error instanceof ConfigError &&
        error.message === 'LOG_FORMAT="text" is not valid: expected one of auto, json, pretty',
    );
  });

  test("a terminal gets lines, redacted like the JSON; with LOG_FORMAT=json it gets pino's own JSON writer", () => {
    const tty = recorder({ isTTY: true, hasColors: () => false });
    const logger = createLogger(createConfig({}), tty.out);
    logger.info({ headers: { authorization: 'Bearer tk_secret' } }, 'hello');
    assert.equal(tty.lines.length, 1);
    assert.equal(tty.lines[0].replace(TIME, ''), 'INFO  hello headers={"authorization":"[redacted]"}');
    const writerOf = (l: object) => (l as Record<symbol, object>)[pino.symbols.streamSym].constructor.name;
    assert.notEqual(writerOf(logger), 'SonicBoom');
    const forced = recorder({ isTTY: true });
    assert.equal(writerOf(createLogger(createConfig({ LOG_FORMAT: 'json' }), forced.out)), 'SonicBoom');
    assert.equal(writerOf(createLogger(createConfig({}), recorder({ isTTY: false }).out)), 'SonicBoom');
    assert.deepEqual(forced.lines, []);
  });
});

describe('tyche serve logs', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tyche-log-format-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** Starts `tyche serve` with its stdout on a pipe, asks /healthz once, and returns what it printed. */
  async function serveOnce(format: string | undefined, name: string): Promise<string[]> {
    const child = spawn(process.execPath, [CLI, 'serve'], {
      env: {
        PATH: process.env.PATH,
        DATA_DIR: join(dir, name),
        TYCHE_SOURCES: 'system',
        HOST: '127.0.0.1',
        PORT: '0',
        LOG_FORMAT: format,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const lines: string[] = [];
    let asked = false;
    for await (const line of createInterface({ input: child.stdout! })) {
      lines.push(line);
      const url = line.includes('tyche is serving') ? /http:\/\/127\.0\.0\.1:\d+/.exec(line)?.[0] : undefined;
      if (url && !asked) {
        asked = true;
        await fetch(`${url}/healthz`, { headers: { 'x-request-id': 'probe-1' } });
      }
      if (line.includes('probe-1') && line.includes('200')) break;
    }
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
    return lines;
  }

  test('into a pipe the lines are JSON, as before', async () => {
    const lines = await serveOnce(undefined, 'json');
    const records = lines.map((line) => JSON.parse(line));
    assert.ok(records.some((r) => r.msg === 'tyche is serving'));
    // One line per request, when it ends, with what it asked and how it was answered.
    const request = records.filter((r) => r.reqId === 'probe-1');
    assert.equal(request.length, 1, JSON.stringify(request));
    assert.equal(request[0].msg, 'request completed');
    assert.equal(request[0].req.method, 'GET');
    assert.equal(request[0].req.url, '/healthz');
    assert.equal(request[0].req.remoteAddress, '127.0.0.1');
    assert.equal(request[0].res.statusCode, 200);
    assert.equal(typeof request[0].responseTime, 'number');
  });

  test('LOG_FORMAT=pretty gives lines even into a pipe, without colours', async () => {
    const lines = await serveOnce('pretty', 'pretty');
    assert.ok(
      lines.every((line) => TIME.test(line)),
      lines.join('\n'),
    );
    assert.ok(
      lines.some((line) =>
        / INFO {2}tyche is serving url=http:\/\/127\.0\.0\.1:\d+ store=sqlite /.test(line),
      ),
    );
    assert.ok(
      lines.some((line) => /INFO {2}request completed \[probe-1\] GET \/healthz 200 \d+\.\d ms$/.test(line)),
    );
  });
});
