import { createHash } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { OID } from '../../src/proof/timestamp/tsa-oids.ts';

/** How a token from the fake TSA is made: right, or with one thing wrong that a check must catch. */
export type TokenVariant =
  | 'good'
  /** Good, naming its certificate by ESSCertID (SHA-1, RFC 2634) instead of ESSCertIDv2. */
  | 'ess-v1'
  | 'wrong-imprint'
  | 'wrong-nonce'
  | 'bad-signature'
  /** Signed under another CA's chain, whose root nobody trusts. */
  | 'untrusted-root'
  /** Signed by a certificate whose validity ended before genTime. */
  | 'expired'
  /** Signed by a certificate without the extended key usage. */
  | 'missing-eku'
  /** Signed by a certificate whose timeStamping EKU is not marked critical. */
  | 'eku-not-critical'
  /** Its signed attributes name another certificate than the signer's. */
  | 'wrong-ess';

const KEY = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const YEAR_MS = 365 * 86_400_000;

interface Issued {
  cert: pkijs.Certificate;
  key: CryptoKey;
}

function nameOf(cn: string): pkijs.RelativeDistinguishedNames {
  const name = new pkijs.RelativeDistinguishedNames();
  name.typesAndValues.push(
    new pkijs.AttributeTypeAndValue({
      type: '2.5.4.10',
      value: new asn1js.Utf8String({ value: 'Tyche tests' }),
    }),
    new pkijs.AttributeTypeAndValue({ type: '2.5.4.3', value: new asn1js.Utf8String({ value: cn }) }),
  );
  return name;
}

let serial = 1;

/** A certificate for a fresh key, signed by `issuer` (itself when absent). */
async function issue(input: {
  cn: string;
  issuer?: Issued;
  ca: boolean;
  eku?: { critical: boolean };
  from: Date;
  to: Date;
}): Promise<Issued> {
  const keys = (await crypto.subtle.generateKey(KEY, true, ['sign', 'verify'])) as CryptoKeyPair;
  const cert = new pkijs.Certificate();
  cert.version = 2;
  cert.serialNumber = new asn1js.Integer({ value: serial++ });
  cert.subject = nameOf(input.cn);
  cert.issuer = input.issuer ? input.issuer.cert.subject : cert.subject;
  cert.notBefore.value = input.from;
  cert.notAfter.value = input.to;
  const basic = new pkijs.BasicConstraints({ cA: input.ca });
  cert.extensions = [
    new pkijs.Extension({
      extnID: OID.basicConstraints,
      critical: true,
      extnValue: basic.toSchema().toBER(),
    }),
  ];
  if (input.eku) {
    const eku = new pkijs.ExtKeyUsage({ keyPurposes: [OID.timeStamping] });
    cert.extensions.push(
      new pkijs.Extension({
        extnID: OID.extKeyUsage,
        critical: input.eku.critical,
        extnValue: eku.toSchema().toBER(),
      }),
    );
  }
  await cert.subjectPublicKeyInfo.importKey(keys.publicKey);
  await cert.sign(input.issuer?.key ?? keys.privateKey, 'SHA-256');
  return { cert, key: keys.privateKey };
}

const der = (cert: pkijs.Certificate) => new Uint8Array(cert.toSchema().toBER());
const sha = (name: string, data: Uint8Array) => new Uint8Array(createHash(name).update(data).digest());

function pemOf(cert: pkijs.Certificate): string {
  const body = Buffer.from(der(cert))
    .toString('base64')
    .replace(/(.{64})/g, '$1\n');
  return `-----BEGIN CERTIFICATE-----\n${body}\n-----END CERTIFICATE-----\n`;
}

/** SigningCertificate(V2) naming `cert` by its hash, issuer and serial (RFC 2634 / RFC 5035). */
function signingCertificate(cert: pkijs.Certificate, v1: boolean): pkijs.Attribute {
  const issuerSerial = new pkijs.IssuerSerial({
    issuer: new pkijs.GeneralNames({ names: [new pkijs.GeneralName({ type: 4, value: cert.issuer })] }),
    serialNumber: cert.serialNumber,
  });
  const hash = new asn1js.OctetString({ valueHex: sha(v1 ? 'sha1' : 'sha256', der(cert)) });
  const essCertId = new asn1js.Sequence({ value: [hash, issuerSerial.toSchema()] });
  const value = new asn1js.Sequence({ value: [new asn1js.Sequence({ value: [essCertId] })] });
  return new pkijs.Attribute({
    type: v1 ? OID.signingCertificate : OID.signingCertificateV2,
    values: [value],
  });
}

export interface TokenRequest {
  /** The 32-byte SHA-256 imprint asked for. */
  imprint: Uint8Array;
  nonce?: bigint;
  genTime: Date;
  variant?: TokenVariant;
}

/**
 * A small PKI of its own — root → issuing CA → TSA signer with a critical timeStamping EKU — that
 * issues RFC 3161 tokens, good or broken in one named way. Only `rootPem` is to be trusted.
 */
export interface FakeTsaCa {
  rootPem: string;
  /** The DER of a TimeStampToken (ContentInfo). */
  token(request: TokenRequest): Promise<Uint8Array>;
  /** The DER of a granted TimeStampResp holding `token(request)`. */
  response(request: TokenRequest): Promise<Uint8Array>;
}

export async function createFakeTsaCa(name = 'Fake TSA'): Promise<FakeTsaCa> {
  const now = Date.now();
  const from = new Date(now - 5 * YEAR_MS);
  const to = new Date(now + 5 * YEAR_MS);
  const root = await issue({ cn: `${name} Root`, ca: true, from, to });
  const issuing = await issue({ cn: `${name} Issuing CA`, issuer: root, ca: true, from, to });
  const signer = await issue({ cn: name, issuer: issuing, ca: false, eku: { critical: true }, from, to });
  const expired = await issue({
    cn: `${name} (expired)`,
    issuer: issuing,
    ca: false,
    eku: { critical: true },
    from,
    to: new Date(now - YEAR_MS),
  });
  const noEku = await issue({ cn: `${name} (no EKU)`, issuer: issuing, ca: false, from, to });
  const softEku = await issue({
    cn: `${name} (EKU)`,
    issuer: issuing,
    ca: false,
    eku: { critical: false },
    from,
    to,
  });
  const otherRoot = await issue({ cn: `${name} Other Root`, ca: true, from, to });
  const stranger = await issue({ cn: name, issuer: otherRoot, ca: false, eku: { critical: true }, from, to });

  const signerFor: Partial<Record<TokenVariant, [Issued, Issued]>> = {
    expired: [expired, issuing],
    'missing-eku': [noEku, issuing],
    'eku-not-critical': [softEku, issuing],
    'untrusted-root': [stranger, otherRoot],
  };

  async function token(request: TokenRequest): Promise<Uint8Array> {
    const variant = request.variant ?? 'good';
    const [by, above] = signerFor[variant] ?? [signer, issuing];
    const imprint = variant === 'wrong-imprint' ? sha('sha256', request.imprint) : request.imprint;
    const nonce =
      request.nonce === undefined ? undefined : request.nonce + (variant === 'wrong-nonce' ? 1n : 0n);
    const tst = new pkijs.TSTInfo({
      version: 1,
      policy: '1.3.6.1.4.1.4146.2.3',
      messageImprint: new pkijs.MessageImprint({
        hashAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: OID.sha256 }),
        hashedMessage: new asn1js.OctetString({ valueHex: imprint }),
      }),
      serialNumber: new asn1js.Integer({ value: serial++ }),
      genTime: request.genTime,
      ...(nonce === undefined ? {} : { nonce: asn1js.Integer.fromBigInt(nonce) }),
    });
    const content = new Uint8Array(tst.toSchema().toBER());
    const named = variant === 'wrong-ess' ? issuing.cert : by.cert;
    const signed = new pkijs.SignedData({
      version: 3,
      encapContentInfo: new pkijs.EncapsulatedContentInfo({
        eContentType: OID.tstInfo,
        eContent: new asn1js.OctetString({ valueHex: content }),
      }),
      signerInfos: [
        new pkijs.SignerInfo({
          version: 1,
          sid: new pkijs.IssuerAndSerialNumber({
            issuer: by.cert.issuer,
            serialNumber: by.cert.serialNumber,
          }),
          signedAttrs: new pkijs.SignedAndUnsignedAttributes({
            type: 0,
            attributes: [
              new pkijs.Attribute({
                type: OID.contentType,
                values: [new asn1js.ObjectIdentifier({ value: OID.tstInfo })],
              }),
              new pkijs.Attribute({
                type: OID.messageDigest,
                values: [new asn1js.OctetString({ valueHex: sha('sha256', content) })],
              }),
              signingCertificate(named, variant === 'ess-v1'),
            ],
          }),
        }),
      ],
      // The chain below the root, as public TSAs send it: the root itself is the verifier's to bring.
      certificates: [by.cert, above.cert],
    });
    await signed.sign(by.key, 0, 'SHA-256');
    if (variant === 'bad-signature') {
      const bytes = new Uint8Array(signed.signerInfos[0].signature.valueBlock.valueHexView);
      bytes[bytes.length - 1] ^= 0x01;
      signed.signerInfos[0].signature = new asn1js.OctetString({ valueHex: bytes });
    }
    const info = new pkijs.ContentInfo({ contentType: OID.signedData, content: signed.toSchema(true) });
    return new Uint8Array(info.toSchema().toBER());
  }

  return {
    rootPem: pemOf(root.cert),
    token,
    async response(request) {
      const timeStampToken = pkijs.ContentInfo.fromBER((await token(request)).slice());
      const answer = new pkijs.TimeStampResp({
        status: new pkijs.PKIStatusInfo({ status: 0 }),
        timeStampToken,
      });
      return new Uint8Array(answer.toSchema().toBER());
    },
  };
}
