// Entrants over time on the public giveaway page, drawn on the server as inline SVG: the page
// needs no script and no charting library for it, reads the same with JavaScript off, costs a
// few kilobytes however long the giveaway ran (the series has at most MAX_SERIES_POINTS), and the
// numbers behind it are in a table below for screen readers and anyone who wants them exactly.

import { type Html, html } from '../edge/html.ts';
import type { EntrantSeries } from '../giveaways/results/entrant-series.ts';
import type { PageLocale } from './page-language.ts';
import { time } from './page-parts.ts';

const W = 600;
const H = 180;
const PAD = { left: 36, right: 8, top: 10, bottom: 22 };

export const CHART_STYLE = `
.chart{width:100%;height:auto;max-height:16rem;display:block;margin:.5rem 0}
.chart .bar{fill:var(--accent);opacity:.3}.chart .line{fill:none;stroke:var(--accent);stroke-width:2;vector-effect:non-scaling-stroke}
.chart .axis{stroke:var(--line);stroke-width:1}.chart text{fill:var(--muted);font:11px system-ui,sans-serif}
.chart-legend{display:flex;flex-wrap:wrap;gap:.3rem 1.2rem;font-size:.9rem;color:var(--muted);margin:0}
.chart-legend .key-bar::before,.chart-legend .key-line::before{content:"";display:inline-block;width:.9rem;height:.6rem;margin-right:.35rem;background:var(--accent);vertical-align:middle}
.chart-legend .key-bar::before{opacity:.3}.chart-legend .key-line::before{height:2px}`;

const round1 = (v: number) => Math.round(v * 10) / 10;

/** The chart of joins per bucket (bars) and the running total (line), or nothing before any join. */
export function entrantChart(series: EntrantSeries | undefined, { t }: PageLocale): Html | string {
  if (!series || series.joins.length === 0) return '';
  const n = series.joins.length;
  const total = series.total[n - 1];
  const maxJoins = Math.max(...series.joins);
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const slot = plotW / n;
  const x = (i: number) => PAD.left + slot * (i + 0.5);
  const yTotal = (v: number) => PAD.top + plotH - (v / total) * plotH;
  const bars = series.joins.map((v, i) => {
    const h = (v / maxJoins) * plotH * 0.9;
    return html`<rect class="bar" data-joins="${v}" x="${round1(PAD.left + slot * i + slot * 0.1)}" y="${round1(PAD.top + plotH - h)}" width="${round1(Math.max(slot * 0.8, 0.5))}" height="${round1(h)}"></rect>`;
  });
  const points = series.total.map((v, i) => `${round1(x(i))},${round1(yTotal(v))}`).join(' ');
  const hours = series.step_s / 3600;
  const perBucket = t('chart-bucket', { hours });
  const iso = (s: number) => new Date(s * 1000).toISOString();
  const first = iso(series.start_s[0]);
  const last = iso(series.start_s[n - 1] + series.step_s);
  const rows = series.joins
    .map((v, i) => ({ v, i }))
    .filter(({ v }) => v > 0)
    .map(
      ({ v, i }) =>
        html`<tr><td>${time(iso(series.start_s[i]))}</td><td>${v}</td><td>${series.total[i]}</td></tr>`,
    );
  return html`<section aria-labelledby="chart-heading" id="entrants-chart"><h2 id="chart-heading">${t('chart-heading')}</h2>
<svg class="chart" viewBox="0 0 ${W} ${H}" role="img" aria-labelledby="chart-title" data-points="${n}" preserveAspectRatio="none">
<title id="chart-title">${t('chart-title', { total, first: first.slice(0, 16).replace('T', ' '), last: last.slice(0, 16).replace('T', ' ') })}</title>
<line class="axis" x1="${PAD.left}" y1="${PAD.top + plotH}" x2="${W - PAD.right}" y2="${PAD.top + plotH}"></line>
<line class="axis" x1="${PAD.left}" y1="${PAD.top}" x2="${PAD.left}" y2="${PAD.top + plotH}"></line>
<text x="${PAD.left - 4}" y="${PAD.top + 9}" text-anchor="end">${total}</text>
<text x="${PAD.left - 4}" y="${PAD.top + plotH}" text-anchor="end">0</text>
${bars}<polyline class="line" data-total-line points="${points}"></polyline>
</svg>
<p class="chart-legend"><span class="key-bar">${t('chart-legend-joins', { bucket: perBucket })}</span><span class="key-line">${t('chart-legend-total', { total })}</span>
<span>${time(first)} — ${time(last)}</span></p>
<details><summary>${t('chart-table')}</summary><div class="table-wrap"><table>
<thead><tr><th scope="col">${t('chart-col-from')}</th><th scope="col">${t('chart-col-joins')}</th><th scope="col">${t('chart-col-total')}</th></tr></thead>
<tbody>${rows}</tbody></table></div></details></section>`;
}
