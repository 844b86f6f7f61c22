import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SEAL_OPERATOR_ONLY } from '../../src/proof/outside-evidence.ts';
import { makeCheck, warnCheck } from '../../src/proof/report.ts';
import { renderChecks, shownCheck } from '../../src/web/check-list.ts';
import { renderGiveawayPage } from '../../src/web/giveaway-page.ts';
import { buildV2Fixture, publicViewOf } from '../helpers/v2-fixtures.ts';

/** Just enough of the DOM for renderChecks, serialised as HTML (text escaped, as textContent does). */
class FakeElement {
  className = '';
  textContent = '';
  readonly attrs: [string, string][] = [];
  children: (FakeElement | string)[] = [];
  readonly tag: string;
  constructor(tag: string) {
    this.tag = tag;
  }
  setAttribute(name: string, value: string) {
    this.attrs.push([name, value]);
  }
  append(...nodes: (FakeElement | string)[]) {
    this.children.push(...nodes);
  }
  replaceChildren(...nodes: (FakeElement | string)[]) {
    this.children = nodes;
  }
  get outerHTML(): string {
    const esc = (t: string) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;');
    const attrs = [...(this.className ? [['class', this.className]] : []), ...this.attrs]
      .map(([n, v]) => ` ${n}="${v}"`)
      .join('');
    const inner = this.children.length
      ? this.children.map((c) => (typeof c === 'string' ? esc(c) : c.outerHTML)).join('')
      : esc(this.textContent);
    return `<${this.tag}${attrs}>${inner}</${this.tag}>`;
  }
}

describe('a seal without outside evidence reads as a warning', () => {
  test('check list: its own class, mark and word, not a green tick', () => {
    const g = globalThis as { document?: unknown };
    const saved = g.document;
    g.document = { createElement: (tag: string) => new FakeElement(tag), getElementById: () => null };
    try {
      const list = new FakeElement('ul');
      renderChecks(list as unknown as HTMLElement, [
        shownCheck(makeCheck('seal-signature', 'Seal signature', null, 'valid')),
        shownCheck(warnCheck('seal-time', 'Seal time', SEAL_OPERATOR_ONLY)),
      ]);
      const [passed, warned] = list.children.map((c) => (c as FakeElement).outerHTML);
      assert.match(
        passed,
        /^<li class="check ok"><span class="mark" aria-hidden="true">✓<\/span> <strong>Seal signature: passed<\/strong>/,
      );
      assert.equal(
        warned,
        '<li class="check warn"><span class="mark" aria-hidden="true">!</span> <strong>Seal time: warning</strong> <span class="detail">seal time attested by the operator only</span></li>',
      );
    } finally {
      g.document = saved;
    }
  });

  const f = buildV2Fixture({ title: 'Prize <b>&</b>', count: 5, winners: 1, reserves: 0 });
  const view = publicViewOf(f, 'sealed');

  test('giveaway page: no witness, the seal time rests on the server', () => {
    const page = renderGiveawayPage(view);
    assert.doesNotMatch(page, /could know the winners/);
    assert.match(page, /<p class="notice" data-seal-claim="operator">/);
    assert.match(page, /The owner could not know the winners when the list was sealed/);
    assert.match(
      page,
      /the seal&#39;s time rests on this server&#39;s word \(no outside witness or valid timestamp yet\)/,
    );
    assert.doesNotMatch(page, /Prize <b>/);
  });

  test('giveaway page: witnessed before the round, nobody could know the winners', () => {
    const page = renderGiveawayPage(view, { sealWitnessed: true });
    assert.match(page, /<p class="notice public" data-seal-claim="witnessed">/);
    assert.match(page, /nobody — the owner or this server — could know the winners when it was made/);
    assert.doesNotMatch(page, /rests on this server's word/);
  });
});
