// The object identifiers RFC 3161 tokens are read by (RFC 3161, RFC 5652, RFC 5816, RFC 5280).

export const OID = {
  sha1: '1.3.14.3.2.26',
  sha256: '2.16.840.1.101.3.4.2.1',
  signedData: '1.2.840.113549.1.7.2',
  tstInfo: '1.2.840.113549.1.9.16.1.4',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  /** SigningCertificate, holding ESSCertID (SHA-1 of the signer's certificate), RFC 2634. */
  signingCertificate: '1.2.840.113549.1.9.16.2.12',
  /** SigningCertificateV2, holding ESSCertIDv2 (any hash, SHA-256 by default), RFC 5035 / RFC 5816. */
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
  basicConstraints: '2.5.29.19',
  extKeyUsage: '2.5.29.37',
  timeStamping: '1.3.6.1.5.5.7.3.8',
} as const;

/** WebCrypto's name of a hash the ESSCertIDv2 and imprint checks accept, by OID. */
export const HASH_NAMES: Record<string, string> = {
  [OID.sha1]: 'SHA-1',
  [OID.sha256]: 'SHA-256',
  '2.16.840.1.101.3.4.2.2': 'SHA-384',
  '2.16.840.1.101.3.4.2.3': 'SHA-512',
};
