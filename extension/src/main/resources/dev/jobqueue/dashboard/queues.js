// Queues page: every queue's counts, pause switch and cluster-wide limits, with pause, resume and a change of the
// limits for admins.
import { api, seg } from './api.js';
import { badge, h, numCell, rerender, table } from './dom.js';
import { time } from './format.js';

/** The limits in force and how near the queue is to them: "12/50 started per 1s; 3/5 running". */
function limitsCell(q) {
  const flow = q.flow ?? {};
  const parts = [];
  if (flow.rateLimit) {
    const [permits, period] = flow.rateLimit.split('/');
    parts.push(`${flow.startsInPeriod ?? 0}/${permits} started per ${period}`);
  }
  if (flow.maxRunning) parts.push(`${q.running ?? 0}/${flow.maxRunning} running`);
  const text = parts.length ? parts.join('; ') + (flow.overridden ? ' (set by an admin)' : '') : 'none';
  return h('td', { 'data-limits': text }, text,
    flow.backoffUntil ? h('span', { class: 'backoff' }, '; backing off until ', time(flow.backoffUntil)) : null);
}

const STATES = ['waiting', 'pending', 'running', 'done', 'failed', 'cancelled'];

export function mount(ctx) {
  ctx.title('Queues');
  const results = h('div');
  ctx.main.append(h('h1', null, 'Queues'), results);

  const toggle = (queue, action, done) => ctx.act(async () => {
    await api(`queues/${seg(queue)}/${action}`, { method: 'POST' });
    ctx.status(`${done} ${queue}`);
    await ctx.reload();
  });

  // Empty fields give a limit back to the configuration; "none" (or 0 running) lifts it.
  const limitsForm = q => {
    const rate = h('input', { name: 'rateLimit', size: 8, placeholder: '50/1s', value: q.flow?.rateLimit ?? '',
      'aria-label': `Rate limit of ${q.queue}` });
    const running = h('input', { name: 'maxRunning', size: 4, inputmode: 'numeric', placeholder: '5',
      value: q.flow?.maxRunning || '', 'aria-label': `Max running of ${q.queue}` });
    const set = event => {
      event.preventDefault();
      const text = running.value.trim();
      ctx.act(async () => {
        await api(`queues/${seg(q.queue)}/limits`, { method: 'PUT', body: {
          rateLimit: rate.value.trim() || null,
          maxRunning: text === '' ? null : Number(text),
        } });
        ctx.status(`Set the limits of ${q.queue}`);
        await ctx.reload();
      });
    };
    return h('details', { class: 'limits-form' }, h('summary', null, 'Limits'),
      h('form', { onsubmit: set }, rate, ' per period, ', running, ' running ',
        h('button', { type: 'submit', class: 'set-limits' }, 'Set')));
  };

  return async () => {
    const queues = await api('queues');
    rerender(results, () => queues.length ? table('queues-table', [
      'Queue', ...STATES.map(state => ({ text: state[0].toUpperCase() + state.slice(1), class: 'num' })), 'State',
      'Limits', ctx.me.admin && 'Actions',
    ].filter(Boolean), queues.map(q => h('tr', { dataset: { queue: q.queue } },
      h('th', { scope: 'row' }, h('a', { href: `#/jobs?queue=${encodeURIComponent(q.queue)}` }, q.queue)),
      STATES.map(state => numCell(q[state] ?? 0, { 'data-count': state })),
      h('td', { 'data-paused': q.paused ? 'paused' : 'running' }, badge(q.paused ? 'paused' : 'running')),
      limitsCell(q),
      ctx.me.admin && h('td', { class: 'row-actions' }, q.paused
        ? h('button', { type: 'button', class: 'resume', onclick: () => toggle(q.queue, 'resume', 'Resumed') }, 'Resume')
        : h('button', { type: 'button', class: 'pause', onclick: () => toggle(q.queue, 'pause', 'Paused') }, 'Pause'),
        ' ', limitsForm(q)))), 'Queues')
      : h('p', { class: 'empty' }, 'No queues yet.'), JSON.stringify(queues));
  };
}
