// Trust anchors for RFC 3161 tokens (CONTRACT §13): X.509 certificates given as DER bytes or as
// PEM text holding one or more CERTIFICATE blocks. A verifier brings its own anchors (the shipped
// roots, an operator's file); certificates that travel inside a token never become anchors.

import * as pkijs from 'pkijs';
import { pemCertificates } from './pem.ts';

/** One anchor as a caller holds it: DER bytes, or PEM text with one or more certificates. */
export type AnchorInput = Uint8Array | string;

/** One X.509 certificate from its DER bytes; throws when they are not one. */
export function certificateOf(der: Uint8Array): pkijs.Certificate {
  try {
    return pkijs.Certificate.fromBER(der.slice());
  } catch (error) {
    throw new Error(`not an X.509 certificate (${(error as Error).message})`);
  }
}

/** Every certificate of the given anchors, parsed; throws on the first that is not one. */
export function anchorCertificates(anchors: readonly AnchorInput[]): pkijs.Certificate[] {
  return anchors.flatMap((anchor) =>
    typeof anchor === 'string' ? pemCertificates(anchor).map(certificateOf) : [certificateOf(anchor)],
  );
}

const NAME_ATTRIBUTES: Record<string, string> = { '2.5.4.3': 'CN', '2.5.4.10': 'O', '2.5.4.6': 'C' };

/** A short, readable form of an X.509 name: its common name, else its organization, else its OIDs. */
export function nameText(name: pkijs.RelativeDistinguishedNames): string {
  const parts = new Map<string, string>();
  for (const tv of name.typesAndValues) {
    const label = NAME_ATTRIBUTES[tv.type];
    const value = (tv.value as { valueBlock?: { value?: unknown } }).valueBlock?.value;
    if (label && typeof value === 'string' && !parts.has(label)) parts.set(label, value);
  }
  return parts.get('CN') ?? parts.get('O') ?? name.typesAndValues.map((tv) => tv.type).join(',');
}
