// PEM text to DER bytes, kept apart from the X.509 parser so that reading a file of anchors at
// start-up does not load pkijs: the certificates themselves are read when a token is first checked.

import { fromBase64 } from '../hex.ts';

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/g;

/** The DER bytes of every CERTIFICATE block of a PEM text; throws when a block is not base64. */
export function pemCertificates(text: string): Uint8Array[] {
  const blocks: Uint8Array[] = [];
  for (const match of text.matchAll(PEM_BLOCK)) {
    const der = fromBase64(match[1].replace(/\s+/g, ''));
    if (!der) throw new Error('a CERTIFICATE block is not base64');
    blocks.push(der);
  }
  return blocks;
}
