// Entrants over time as a uPlot chart (CONTRACT §15): joins per hour as bars and the running
// total as a line, in Telegram's colours, sized to the phone's width. A text summary says the same
// for screen readers and for anyone who cannot read the chart.

import uPlot from 'uplot';
import type { EntrantSeries } from '../../giveaways/results/entrant-series.ts';
import { currentLanguage, el, t } from './app-dom.client.ts';

/**
 * The time axis in the user's language and clock (uPlot's own labels are English, 12-hour): the
 * hour at every tick, and the day under the first tick and under each midnight.
 */
function timeLabels(): (u: uPlot, splits: number[]) => string[] {
  const language = currentLanguage();
  const time = new Intl.DateTimeFormat(language, { hour: '2-digit', minute: '2-digit' });
  const day = new Intl.DateTimeFormat(language, { day: 'numeric', month: 'short' });
  return (_u, splits) =>
    splits.map((s, i) => {
      const at = new Date(s * 1000);
      const midnight = at.getHours() === 0 && at.getMinutes() === 0;
      return i === 0 || midnight ? `${time.format(at)}\n${day.format(at)}` : time.format(at);
    });
}

const cssVar = (name: string, fallback: string) =>
  getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;

export function entrantChart(series: EntrantSeries | null): HTMLElement {
  const box = el('div', { class: 'chart', attrs: { id: 'entrant-chart' } });
  if (!series || series.start_s.length === 0) {
    box.append(el('p', { class: 'hint', text: t('app-chart-empty') }));
    return box;
  }
  const total = series.total[series.total.length - 1];
  const peak = Math.max(...series.joins);
  const first = series.start_s[0];
  const last = series.start_s[series.start_s.length - 1];
  const summary = el('p', { class: 'hint', text: t('app-chart-summary', { total, peak }) });
  box.dataset.points = String(series.start_s.length);
  // Drawn once the box is in the page, so its width is known.
  requestAnimationFrame(() => {
    const fg = cssVar('--fg', '#1b1f24');
    const line = cssVar('--line', '#d0d7de');
    const accent = cssVar('--btn', '#2a7ac0');
    const hint = cssVar('--hint', '#5f6b76');
    const axis = { stroke: hint, grid: { stroke: line, width: 1 }, ticks: { stroke: line, width: 1 } };
    const width = Math.max(260, box.clientWidth);
    const plot = new uPlot(
      {
        width,
        height: 220,
        legend: { show: true, live: false },
        cursor: { drag: { x: false, y: false } },
        // From the first hour's start to the last hour's end, whatever the number of points.
        scales: {
          x: { time: true, range: () => [first, last + series.step_s] },
          joins: { range: (_u, _min, max) => [0, Math.max(1, max)] },
          total: { range: (_u, _min, max) => [0, Math.max(1, max)] },
        },
        axes: [
          { ...axis, stroke: fg, values: timeLabels() },
          { ...axis, scale: 'joins', size: 40 },
          { ...axis, scale: 'total', side: 1, size: 44, grid: { show: false } },
        ],
        series: [
          {},
          {
            label: t('app-chart-joins'),
            scale: 'joins',
            stroke: hint,
            fill: `${hint}55`,
            paths: uPlot.paths.bars?.({ size: [0.8, 24] }),
            points: { show: false },
          },
          {
            label: t('app-chart-total'),
            scale: 'total',
            stroke: accent,
            width: 2,
            points: { show: series.start_s.length < 40 },
          },
        ],
      },
      [series.start_s, series.joins, series.total],
      box,
    );
    plot.root.setAttribute('aria-hidden', 'true');
    new ResizeObserver(() => {
      const next = Math.max(260, box.clientWidth);
      if (next !== plot.width) plot.setSize({ width: next, height: 220 });
    }).observe(box);
  });
  return el('div', {}, box, summary);
}
