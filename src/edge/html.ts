import { escapeHtml } from '../shared/html-escape.ts';

export { escapeHtml };

/** A tagged template that escapes interpolations unless they are already-built Html. */
export class Html {
  readonly value: string;
  constructor(value: string) {
    this.value = value;
  }
  toString() {
    return this.value;
  }
}

export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0];
  values.forEach((value, i) => {
    out += render(value) + strings[i + 1];
  });
  return new Html(out);
}

function render(value: unknown): string {
  if (value instanceof Html) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(value);
}

const BASE_STYLE = `
:root{color-scheme:light dark;--fg:#1b1f24;--bg:#fff;--muted:#57606a;--line:#d0d7de;--accent:#0b5cad}
@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--bg:#0d1117;--muted:#9da7b3;--line:#30363d;--accent:#6cb6ff}}
body{font:16px/1.5 system-ui,sans-serif;color:var(--fg);background:var(--bg);margin:0 auto;max-width:60rem;padding:1rem}
a{color:var(--accent)}code,pre,.mono{font-family:ui-monospace,monospace;font-size:.9em;overflow-wrap:anywhere}
pre{overflow-x:auto;border:1px solid var(--line);padding:.5rem}
table{border-collapse:collapse;width:100%}th,td{border-bottom:1px solid var(--line);padding:.35rem;text-align:left;vertical-align:top}
.muted{color:var(--muted)}`;

/** Where every page's icon is served (web/favicon.ts). */
export const FAVICON_PATH = '/favicon.svg';

/** The document shell shared by every server-rendered page; `lang` is the page's language (default en). */
export function layout(options: {
  title: string;
  body: Html;
  style?: string;
  head?: Html;
  lang?: string;
}): string {
  return `<!doctype html>
<html lang="${escapeHtml(options.lang ?? 'en')}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(options.title)}</title><link rel="icon" href="${FAVICON_PATH}" type="image/svg+xml"><style>${BASE_STYLE}${options.style ?? ''}</style>${options.head?.value ?? ''}</head>
<body>${options.body.value}</body></html>`;
}

/** Pages carry no third-party content: scripts only from this origin, styles inline. */
export const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/**
 * The API reference page: its one inline script (by hash) and the reference UI's script from
 * this origin; the UI injects its own styles and small images. Try-it-out may call the API at
 * PUBLIC_BASE_URL, which is this origin unless the server sits behind another address.
 */
export function referenceCsp(scriptHashes: string[], apiOrigin: string): string {
  return [
    "default-src 'none'",
    `script-src 'self' ${scriptHashes.join(' ')}`.trim(),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src 'self' ${apiOrigin}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}
