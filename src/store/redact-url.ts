/** A URL with its password (in the user part or a `password` parameter) replaced, for messages and logs. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    if (parsed.searchParams.has('password')) parsed.searchParams.set('password', '***');
    return parsed.toString();
  } catch {
    // Unparsable: show only the scheme, since a password may sit anywhere in the rest.
    return `${url.split(':')[0]}:…`;
  }
}
