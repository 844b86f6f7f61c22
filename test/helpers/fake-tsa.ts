import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import type { Clock } from '../../src/shared/clock.ts';
import { createFakeTsaCa, type FakeTsaCa, type TokenVariant } from './fake-tsa-ca.ts';
import { listenOnLoopback } from './loopback.ts';

/**
 * How the fake TSA answers: a token (good, or broken in one way a check must catch), a refusal
 * (`rejection` status), or not at all — `refuse` closes the listener (connection refused),
 * `error-500` is a 5xx, `hang` holds the request until the mode changes or the client gives up.
 */
export type FakeTsaMode = TokenVariant | 'rejection' | 'refuse' | 'error-500' | 'hang';

export interface FakeTsa {
  /** The URL to put in TYCHE_TSA_URLS. */
  readonly url: string;
  /** Its own root: the one certificate to trust for its tokens. */
  readonly rootPem: string;
  readonly ca: FakeTsaCa;
  /** TimeStampReq bodies received so far, whatever the answer. */
  readonly requests: number;
  /** Resolves once `total` requests in all have arrived (a held one included). */
  whenRequests(total: number): Promise<void>;
  /** Resolves once the mode is in force; leaving `hang` answers the held requests as the new mode says. */
  setMode(mode: FakeTsaMode): Promise<void>;
  close(): Promise<void>;
}

function rejection(): Uint8Array {
  const status = new pkijs.PKIStatusInfo({
    status: 2,
    statusStrings: [new asn1js.Utf8String({ value: 'request refused by the fake TSA' })],
  });
  return new Uint8Array(new pkijs.TimeStampResp({ status }).toSchema().toBER());
}

/**
 * An RFC 3161 TSA on 127.0.0.1 with a PKI of its own (root → issuing CA → TSA signer), whose
 * genTime is `clock`'s time, so a test's fake clock and the service's agree on it.
 */
export async function startFakeTsa(options: { clock: Clock; name?: string }): Promise<FakeTsa> {
  const ca = await createFakeTsaCa(options.name);
  let mode: FakeTsaMode = 'good';
  let requests = 0;
  const waiting = new Set<{ total: number; resolve(): void }>();
  const held = new Set<() => void>();

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests++;
      for (const waiter of waiting) {
        if (requests >= waiter.total) {
          waiting.delete(waiter);
          waiter.resolve();
        }
      }
      const answer = async () => {
        const body = await answerFor(new Uint8Array(Buffer.concat(chunks)));
        if (res.destroyed) return;
        res.writeHead(body ? 200 : 500, {
          'content-type': body ? 'application/timestamp-reply' : 'text/plain',
          connection: 'close',
        });
        res.end(body ?? 'Internal Server Error');
      };
      if (mode === 'hang') held.add(() => void answer());
      else void answer();
    });
  });

  /** The answer in the current mode, or null for a 500. */
  async function answerFor(body: Uint8Array): Promise<Uint8Array | null> {
    if (mode === 'error-500') return null;
    if (mode === 'rejection') return rejection();
    const request = pkijs.TimeStampReq.fromBER(body.slice());
    return ca.response({
      imprint: new Uint8Array(request.messageImprint.hashedMessage.valueBlock.valueHexView),
      nonce: request.nonce?.toBigInt(),
      genTime: options.clock.now(),
      variant: mode as TokenVariant,
    });
  }

  const listen = (port: number) => listenOnLoopback(server, port);
  const stop = () =>
    new Promise<void>((resolve) => {
      held.clear();
      if (!server.listening) return resolve();
      server.close(() => resolve());
      server.closeAllConnections();
    });

  await listen(0);
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/tsa`,
    rootPem: ca.rootPem,
    ca,
    get requests() {
      return requests;
    },
    whenRequests(total) {
      if (requests >= total) return Promise.resolve();
      return new Promise<void>((resolve) => waiting.add({ total, resolve }));
    },
    async setMode(next) {
      const was = mode;
      mode = next;
      if (next === 'refuse' && was !== 'refuse') await stop();
      if (next !== 'refuse' && was === 'refuse') await listen(port);
      if (next !== 'hang') {
        for (const release of held) release();
        held.clear();
      }
    },
    close: stop,
  };
}

/** Writes the fake TSAs' roots to one PEM file, for TYCHE_TSA_TRUST. */
export function writeTsaTrust(path: string, tsas: readonly Pick<FakeTsa, 'rootPem'>[]): string {
  writeFileSync(path, tsas.map((t) => t.rootPem).join(''));
  return path;
}
