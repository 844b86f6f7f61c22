import { readFileSync } from 'node:fs';
import { Marked, type Tokens } from 'marked';
import { escapeHtml, Html, layout } from '../edge/html.ts';

const DOC = new URL('../../docs/draw-algorithm.md', import.meta.url);
const SAFE_HREF = /^(https?:\/\/|#|\/(?!\/))/i;

/** GitHub's heading anchors, so the document's own `#7-test-vectors` links keep working. */
export function slugOf(text: string): string {
  return text
    .toLowerCase()
    .replace(/<[^>]*>/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .trim()
    .replace(/\s/g, '-');
}

// The document is ours, but the page still treats it as text: raw HTML is shown escaped, links
// are limited to http(s), same-site paths and anchors, and the page CSP allows no script anyway.
const marked = new Marked({
  gfm: true,
  renderer: {
    html({ text }: Tokens.HTML | Tokens.Tag) {
      return escapeHtml(text);
    },
    heading({ tokens, depth, text }: Tokens.Heading) {
      const inner = this.parser.parseInline(tokens);
      return `<h${depth} id="${escapeHtml(slugOf(text))}">${inner}</h${depth}>\n`;
    },
    link({ href, title, tokens }: Tokens.Link) {
      const inner = this.parser.parseInline(tokens);
      if (!SAFE_HREF.test(href)) return inner;
      const titleAttr = title ? ` title="${escapeHtml(title)}"` : '';
      return `<a href="${escapeHtml(href)}"${titleAttr}>${inner}</a>`;
    },
    image({ text }: Tokens.Image) {
      return escapeHtml(text);
    },
  },
});

let cached: string | undefined;

/** docs/draw-algorithm.md as a page, rendered once per process. */
export function algorithmPage(): string {
  cached ??= layout({
    title: 'The draw algorithms tyche-draw-v2 and tyche-draw-v1 — Tyche',
    body: new Html(`<main>${marked.parse(readFileSync(DOC, 'utf8'), { async: false })}</main>`),
    style: 'h2{margin-top:2rem}table{display:block;overflow-x:auto}td code{overflow-wrap:anywhere}',
  });
  return cached;
}
