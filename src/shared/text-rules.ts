/**
 * Control characters in people's text: C0 (U+0000–U+001F), DEL and C1 (U+0080–U+009F). Nobody
 * types them into a title or a name, PostgreSQL refuses NUL in text outright, and the others
 * garble CSV exports, certificates and pages. Tab and newline are the only ones a person types,
 * and only into multi-line text such as a description.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL_BUT_TAB_NEWLINE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL_ALL = /[\u0000-\u001f\u007f-\u009f]/g;

export type TextKind = 'line' | 'multiline';

export function hasControlCharacters(text: string, kind: TextKind = 'line'): boolean {
  return (kind === 'line' ? CONTROL : CONTROL_BUT_TAB_NEWLINE).test(text);
}

/** For text a person cannot change for us (a Telegram name): dropped rather than refused. */
export function stripControlCharacters(text: string): string {
  return text.replace(CONTROL_ALL, '');
}

export function controlCharacterMessage(kind: TextKind): string {
  return kind === 'line'
    ? 'must not contain control characters (U+0000–U+001F, U+007F–U+009F)'
    : 'must not contain control characters other than tab and newline (U+0000–U+001F, U+007F–U+009F)';
}
