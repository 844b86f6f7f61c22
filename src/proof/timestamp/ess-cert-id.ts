// RFC 3161 §2.4.1 and RFC 5816: a token names the certificate that must verify it in its signed
// attributes (SigningCertificate / ESSCertID, or SigningCertificateV2 / ESSCertIDv2), so a
// certificate swapped into the token after signing is noticed. The first ESSCertID is the signer's.

import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { bytesEqual } from '../hex.ts';
import { HASH_NAMES, OID } from './tsa-oids.ts';

interface NamedCertificate {
  /** The hash algorithm's OID and the hash it gives for the certificate's DER. */
  hashOid: string;
  certHash: Uint8Array;
  issuerSerial?: pkijs.IssuerSerial;
}

/** The first ESSCertID(v2) of a SigningCertificate(V2) attribute, read with the library's types. */
function firstCertId(attribute: pkijs.Attribute, v2: boolean): NamedCertificate | string {
  const signingCertificate = attribute.values[0];
  const certs = signingCertificate instanceof asn1js.Sequence ? signingCertificate.valueBlock.value[0] : null;
  const first = certs instanceof asn1js.Sequence ? certs.valueBlock.value[0] : null;
  if (!(first instanceof asn1js.Sequence)) return 'its SigningCertificate attribute names no certificate';
  const members = [...first.valueBlock.value];
  let hashOid: string = v2 ? OID.sha256 : OID.sha1;
  if (v2 && members[0] instanceof asn1js.Sequence) {
    hashOid = new pkijs.AlgorithmIdentifier({ schema: members.shift() }).algorithmId;
  }
  const certHash = members.shift();
  if (!(certHash instanceof asn1js.OctetString)) return 'its ESSCertID has no certificate hash';
  const named: NamedCertificate = { hashOid, certHash: new Uint8Array(certHash.valueBlock.valueHexView) };
  const issuerSerial = members.shift();
  if (issuerSerial !== undefined) {
    try {
      named.issuerSerial = new pkijs.IssuerSerial({ schema: issuerSerial });
    } catch {
      return 'its ESSCertID has an unreadable issuerSerial';
    }
  }
  return named;
}

/**
 * Why the signed attributes do not name `signer` (whose exact DER is `der`) as the certificate of
 * the signature, or null when they do.
 */
export async function essCertIdProblem(
  attributes: readonly pkijs.Attribute[],
  signer: pkijs.Certificate,
  der: Uint8Array,
): Promise<string | null> {
  const v2 = attributes.find((a) => a.type === OID.signingCertificateV2);
  const attribute = v2 ?? attributes.find((a) => a.type === OID.signingCertificate);
  if (!attribute) return 'no ESSCertID or ESSCertIDv2 names the signer certificate';
  const named = firstCertId(attribute, v2 !== undefined);
  if (typeof named === 'string') return named;
  const hashName = HASH_NAMES[named.hashOid];
  if (!hashName) return `its ESSCertID uses an unknown hash (${named.hashOid})`;
  const actual = new Uint8Array(await globalThis.crypto.subtle.digest(hashName, der.slice()));
  if (!bytesEqual(actual, named.certHash)) {
    return 'the signer certificate is not the one its ESSCertID names';
  }
  if (named.issuerSerial) {
    const { issuer, serialNumber } = named.issuerSerial;
    const sameIssuer = issuer.names.some((n) => n.type === 4 && signer.issuer.isEqual(n.value));
    if (!sameIssuer || !serialNumber.isEqual(signer.serialNumber)) {
      return "the signer certificate's issuer and serial are not those its ESSCertID names";
    }
  }
  return null;
}
