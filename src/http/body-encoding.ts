/**
 * Why a request body cannot be read as sent: compressed (it would be parsed as text), or in a
 * character set other than UTF-8 (RFC 8259 allows no other for JSON; uploads are read as UTF-8
 * too). `what` names the body in the message: "the JSON body", "the upload".
 */
export function unreadableEncoding(
  headers: Record<string, string | string[] | undefined>,
  what: string,
): string | undefined {
  const encoding = String(headers['content-encoding'] ?? 'identity')
    .trim()
    .toLowerCase();
  if (encoding !== 'identity' && encoding !== '') {
    return `Content-Encoding ${encoding} is not accepted; send ${what} uncompressed`;
  }
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(String(headers['content-type'] ?? ''))?.[1];
  if (charset && !/^utf-?8$/i.test(charset)) {
    return `charset=${charset} is not accepted; ${what} must be UTF-8`;
  }
  return undefined;
}
