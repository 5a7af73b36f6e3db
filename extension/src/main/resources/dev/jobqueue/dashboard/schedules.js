// Schedules page: the recurring schedules with their next and last fire, with run now, pause and resume for admins.
import { api, query, seg } from './api.js';
import { confirmAction } from './confirm.js';
import { badge, h, jobLink, rerender, table } from './dom.js';
import { shortId, time } from './format.js';
import { createPager } from './jobs.js';

const PAGE_SIZE = 100;

export function mount(ctx) {
  ctx.title('Schedules');
  const results = h('div');
  const pager = createPager(ctx.reload);
  ctx.main.append(h('h1', null, 'Schedules'), results, pager.element);

  const trigger = schedule => ctx.act(async () => {
    if (!await confirmAction(`Run schedule ${schedule.name} now? This puts a job on queue ${schedule.queue}; `
      + 'its next occurrence stays as it is.', 'Run now')) return;
    const { job } = await api(`schedules/${seg(schedule.name)}/trigger`, { method: 'POST' });
    ctx.status(`Triggered ${schedule.name}: job `, jobLink(job));
    await ctx.reload();
  });

  const toggle = (name, action, done) => ctx.act(async () => {
    await api(`schedules/${seg(name)}/${action}`, { method: 'POST' });
    ctx.status(`${done} ${name}`);
    await ctx.reload();
  });

  return async () => {
    const page = await api(`schedules${query({ size: PAGE_SIZE, after: pager.cursor })}`);
    const schedules = page.schedules;
    pager.update(page.next);
    rerender(results, () => schedules.length ? table('schedules-table', [
      'Name', 'Queue', 'Cron', 'Zone', 'Next fire', 'Last fire', 'Last job', 'Enabled', 'Paused',
      ctx.me.admin && 'Actions',
    ].filter(Boolean), schedules.map(schedule => h('tr', { dataset: { schedule: schedule.name } },
      h('th', { scope: 'row' }, schedule.name, h('span', { class: 'sub' }, schedule.declared ? '@Recurring' : 'JobSchedules')),
      h('td', null, h('a', { href: `#/jobs?queue=${encodeURIComponent(schedule.queue)}` }, schedule.queue)),
      h('td', null, h('span', { class: 'mono' }, schedule.cron),
        h('span', { class: 'sub' }, `missed: ${schedule.missed ?? '—'}`), h('span', { class: 'sub' }, `overlap: ${schedule.overlap ?? '—'}`)),
      h('td', null, schedule.zone),
      h('td', null, time(schedule.nextFire)),
      h('td', null, time(schedule.lastFire)),
      h('td', null, schedule.lastJob ? [jobLink(schedule.lastJob, shortId(schedule.lastJob)), ' ', badge(schedule.lastJobState)] : '—'),
      h('td', null, schedule.enabled ? 'yes' : 'no',
        schedule.declarationGone && h('span', { class: 'sub' }, 'no running node declares it')),
      h('td', null, schedule.paused ? badge('paused') : 'no'),
      ctx.me.admin && h('td', { class: 'row-actions' },
        h('button', { type: 'button', class: 'trigger', onclick: () => trigger(schedule) }, 'Run now'),
        schedule.paused
          ? h('button', { type: 'button', class: 'resume', onclick: () => toggle(schedule.name, 'resume', 'Resumed') }, 'Resume')
          : h('button', { type: 'button', class: 'pause', onclick: () => toggle(schedule.name, 'pause', 'Paused') }, 'Pause')))), 'Schedules')
      : h('p', { class: 'empty' }, 'No recurring schedules.'), JSON.stringify(schedules));
  };
}
