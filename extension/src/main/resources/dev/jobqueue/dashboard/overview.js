// Overview page: totals per state and, per queue, its counts, switch, oldest due job and finished-per-minute chart.
import { api } from './api.js';
import { badge, h, numCell, rerender, s, table } from './dom.js';
import { ageTime } from './format.js';

const STATES = ['waiting', 'pending', 'running', 'done', 'failed', 'cancelled'];

export function mount(ctx) {
  ctx.title('Overview');
  const totals = h('div');
  const queues = h('div');
  ctx.main.append(h('h1', null, 'Overview'), totals, queues);

  return async () => {
    const data = await api('overview');
    rerender(totals, () => totalsList(data.queues));
    rerender(queues, () => data.queues.length
      ? queueTable(data)
      : h('p', { class: 'empty' }, 'No queues yet: a queue appears when a consumer is declared or a job is put.'));
  };
}

function totalsList(queues) {
  return h('dl', { class: 'totals' }, STATES.map(state => h('div', { class: `total total-${state}` },
    h('dt', null, state),
    h('dd', { 'data-total': state }, queues.reduce((sum, q) => sum + (q[state] ?? 0), 0).toLocaleString()))));
}

function queueTable(data) {
  const headers = ['Queue', ...STATES.map(state => ({ text: capital(state), class: 'num' })), 'State',
    { text: 'Oldest due', class: 'num' }, 'Finished per minute'];
  return table('overview-table', headers, data.queues.map(q => h('tr', { dataset: { queue: q.queue } },
    h('th', { scope: 'row' }, h('a', { href: `#/jobs?queue=${encodeURIComponent(q.queue)}` }, q.queue)),
    STATES.map(state => countCell(q, state)),
    h('td', { 'data-paused': q.paused ? 'paused' : 'running' }, badge(q.paused ? 'paused' : 'running')),
    h('td', { class: 'num' }, ageTime(q.oldestDueAt, data.at)),
    h('td', null, chart(q.finishedPerMinute ?? [], data.minutes ?? q.finishedPerMinute?.length ?? 0)))), 'Queues');
}

function countCell(q, state) {
  const count = q[state] ?? 0;
  if (state === 'failed' && count > 0) {
    return h('td', { class: 'num', 'data-count': state },
      h('a', { href: `#/failed?queue=${encodeURIComponent(q.queue)}`, class: 'failed-link' }, String(count)));
  }
  return numCell(count, { 'data-count': state });
}

function capital(text) {
  return text[0].toUpperCase() + text.slice(1);
}

/** A bar chart, oldest minute first; the last bar (the current minute so far) is drawn lighter. */
function chart(values, minutes) {
  const width = 120;
  const height = 28;
  const gap = 2;
  const bar = (width - gap * (values.length - 1)) / Math.max(values.length, 1);
  const max = Math.max(1, ...values);
  const label = `finished per minute over the last ${minutes} minutes: ${values.join(', ')}`;
  return s('svg', { class: 'chart', width, height, viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': label },
    s('title', null, label),
    s('line', { class: 'chart-base', x1: 0, y1: height - 0.5, x2: width, y2: height - 0.5 }),
    values.map((value, i) => {
      const barHeight = value === 0 ? 0 : Math.max(1, (value / max) * (height - 2));
      return s('rect', {
        class: i === values.length - 1 ? 'chart-bar chart-current' : 'chart-bar',
        x: (i * (bar + gap)).toFixed(1), y: (height - barHeight).toFixed(1),
        width: bar.toFixed(1), height: barHeight.toFixed(1),
      });
    }));
}
