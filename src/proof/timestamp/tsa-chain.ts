// Whether a TSA's certificate chains to a trust anchor the verifier brought (RFC 5280 path
// building, kept to what a timestamp needs). Intermediates may come from the token itself; an
// anchor is only ever one of the verifier's own. An anchor is its name and key: a token's copy of
// a root (a cross-certificate of the same key) ends the path at the verifier's anchor.

import * as pkijs from 'pkijs';
import { nameText } from './anchors.ts';
import { OID } from './tsa-oids.ts';

/** How deep a chain may go below its anchor; public TSAs use one or two intermediates. */
const MAX_DEPTH = 6;

export interface ChainInput {
  signer: pkijs.Certificate;
  /** Certificates that may serve as intermediates (the token's own set). */
  intermediates: readonly pkijs.Certificate[];
  anchors: readonly pkijs.Certificate[];
  /** Every certificate of the chain must be valid at this time (the token's genTime). */
  at: Date;
}

function isCa(cert: pkijs.Certificate): boolean {
  const ext = cert.extensions?.find((e) => e.extnID === OID.basicConstraints);
  return ext?.parsedValue instanceof pkijs.BasicConstraints && ext.parsedValue.cA === true;
}

async function signedBy(cert: pkijs.Certificate, issuer: pkijs.Certificate): Promise<boolean> {
  if (!issuer.subject.isEqual(cert.issuer)) return false;
  try {
    return await cert.verify(issuer);
  } catch {
    return false;
  }
}

/** Every path from `cert` up to an anchor, each listed from `cert` to the anchor. */
async function pathsFrom(
  cert: pkijs.Certificate,
  input: ChainInput,
  below: readonly pkijs.Certificate[],
): Promise<pkijs.Certificate[][]> {
  const path = [...below, cert];
  const found: pkijs.Certificate[][] = [];
  for (const anchor of input.anchors) {
    if (await signedBy(cert, anchor)) found.push([...path, anchor]);
  }
  if (found.length > 0 || path.length > MAX_DEPTH) return found;
  for (const next of input.intermediates) {
    if (path.includes(next) || !isCa(next) || !(await signedBy(cert, next))) continue;
    found.push(...(await pathsFrom(next, input, path)));
  }
  return found;
}

const validAt = (cert: pkijs.Certificate, at: Date) =>
  cert.notBefore.value.getTime() <= at.getTime() && at.getTime() <= cert.notAfter.value.getTime();

/** Why the signer does not chain to an anchor with every certificate valid at `at`, or null. */
export async function chainProblem(input: ChainInput): Promise<string | null> {
  const paths = await pathsFrom(input.signer, input, []);
  if (paths.length === 0) return `no chain to a trusted root from "${nameText(input.signer.issuer)}"`;
  if (paths.some((path) => path.every((cert) => validAt(cert, input.at)))) return null;
  const stale = paths[0].find((cert) => !validAt(cert, input.at))!;
  return (
    `certificate not valid at genTime: "${nameText(stale.subject)}" is valid from ` +
    `${stale.notBefore.value.toISOString()} to ${stale.notAfter.value.toISOString()}`
  );
}
