// Queues page: every queue's counts and pause switch, with pause and resume for admins.
import { api, seg } from './api.js';
import { badge, h, numCell, rerender, table } from './dom.js';

const STATES = ['waiting', 'pending', 'running', 'done', 'failed'];

export function mount(ctx) {
  ctx.title('Queues');
  const results = h('div');
  ctx.main.append(h('h1', null, 'Queues'), results);

  const toggle = (queue, action, done) => ctx.act(async () => {
    await api(`queues/${seg(queue)}/${action}`, { method: 'POST' });
    ctx.status(`${done} ${queue}`);
    await ctx.reload();
  });

  return async () => {
    const queues = await api('queues');
    rerender(results, () => queues.length ? table('queues-table', [
      'Queue', ...STATES.map(state => ({ text: state[0].toUpperCase() + state.slice(1), class: 'num' })), 'State',
      ctx.me.admin && 'Actions',
    ].filter(Boolean), queues.map(q => h('tr', { dataset: { queue: q.queue } },
      h('th', { scope: 'row' }, h('a', { href: `#/jobs?queue=${encodeURIComponent(q.queue)}` }, q.queue)),
      STATES.map(state => numCell(q[state] ?? 0, { 'data-count': state })),
      h('td', { 'data-paused': q.paused ? 'paused' : 'running' }, badge(q.paused ? 'paused' : 'running')),
      ctx.me.admin && h('td', { class: 'row-actions' }, q.paused
        ? h('button', { type: 'button', class: 'resume', onclick: () => toggle(q.queue, 'resume', 'Resumed') }, 'Resume')
        : h('button', { type: 'button', class: 'pause', onclick: () => toggle(q.queue, 'pause', 'Paused') }, 'Pause')))), 'Queues')
      : h('p', { class: 'empty' }, 'No queues yet.'), JSON.stringify(queues));
  };
}
