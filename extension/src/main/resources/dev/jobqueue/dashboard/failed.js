// Failed page: FAILED jobs by filter, with retry and delete per job, for the selected jobs or for all that match.
import { api, query, seg } from './api.js';
import { confirmAction } from './confirm.js';
import { append, h, jobLink, numCell, rerender, table } from './dom.js';
import { plural, shortId, time } from './format.js';
import { createPager, errorCell, filterForm, queueNames, readFilter } from './jobs.js';

const PAGE_SIZE = 50;
const FIELDS = [
  { name: 'queue', label: 'Queue', list: 'queue-names' },
  { name: 'group', label: 'Group' },
  { name: 'dedupeKey', label: 'Dedupe key' },
  { name: 'orderingKey', label: 'Ordering key' },
];
const VERBS = { retry: ['Retry', 'Retried'], delete: ['Delete', 'Deleted'] };

export function mount(ctx) {
  ctx.title('Failed jobs');
  const filter = readFilter(ctx.params, FIELDS);
  const selected = new Set();
  let jobs = [];
  const pager = createPager(ctx.reload);
  const results = h('div');

  // What a retry passed over, and why, as the answer counts them.
  const passedOver = (result) => {
    if (!result?.skipped) return '';
    const why = result.skippedBecause ?? {};
    const reasons = [[why.dependencyFailed, 'wait for a FAILED job'], [why.dedupeKeyHeld, 'have their dedupe key taken'],
      [why.notFailed, 'are no longer FAILED']].filter(([n]) => n > 0).map(([n, text]) => `${n} ${text}`);
    return `; passed over ${plural(result.skipped, 'job')}: ${reasons.join(', ')}`;
  };

  const run = (action, count, question, request) => ctx.act(async () => {
    const [verb, done] = VERBS[action];
    const warning = action === 'delete' ? ' This cannot be undone.' : '';
    if (!await confirmAction(`${question}${warning}`, `${verb} ${plural(count, 'job')}`)) return;
    const result = await request();
    ctx.status(`${done} ${plural(result?.count ?? count, 'job')}${passedOver(result)}`);
    clearSelection();
    await ctx.reload();
  });

  const one = (action, id) => run(action, 1, `${VERBS[action][0]} 1 failed job (${id})?`, () => action === 'retry'
    ? api(`jobs/${seg(id)}/retry`, { method: 'POST' })
    : api(`jobs/${seg(id)}`, { method: 'DELETE' }));

  const chosen = action => {
    const ids = [...selected];
    return run(action, ids.length, `${VERBS[action][0]} ${ids.length} selected failed ${ids.length === 1 ? 'job' : 'jobs'}?`,
      () => api(`jobs/${action}`, { method: 'POST', body: { ids } }));
  };

  const matching = action => ctx.act(async () => {
    const { count } = await api(`jobs/count${query({ ...filter, state: 'FAILED' })}`);
    if (count === 0) {
      ctx.status('No failed jobs match: nothing to do');
      return;
    }
    const described = Object.entries(filter).map(([name, value]) => `${name}=${value}`).join(', ');
    const question = described
      ? `${VERBS[action][0]} ${plural(count, 'failed job')} matching ${described}?`
      : `${VERBS[action][0]} all ${plural(count, 'failed job')}?`;
    await run(action, count, question, () => api(`failed/${action}${query(filter)}`, { method: 'POST' }));
  });

  const retrySelected = h('button', { type: 'button', id: 'retry-selected', class: 'primary', onclick: () => chosen('retry') });
  const deleteSelected = h('button', { type: 'button', id: 'delete-selected', class: 'danger', onclick: () => chosen('delete') });

  function updateSelection() {
    const count = selected.size;
    retrySelected.textContent = count ? `Retry ${count} selected` : 'Retry selected';
    deleteSelected.textContent = count ? `Delete ${count} selected` : 'Delete selected';
    retrySelected.disabled = deleteSelected.disabled = count === 0;
    const all = results.querySelector('#select-all');
    if (all) {
      all.checked = count > 0 && count === jobs.length;
      all.indeterminate = count > 0 && count < jobs.length;
    }
  }

  function clearSelection() {
    selected.clear();
    for (const box of results.querySelectorAll('.select-job')) box.checked = false;
    updateSelection();
  }

  results.addEventListener('change', event => {
    const box = event.target;
    if (box.id === 'select-all') {
      for (const row of results.querySelectorAll('.select-job')) {
        row.checked = box.checked;
        if (box.checked) selected.add(row.value); else selected.delete(row.value);
      }
    } else if (box.classList.contains('select-job')) {
      if (box.checked) selected.add(box.value); else selected.delete(box.value);
    }
    updateSelection();
  });

  function failedTable() {
    const admin = ctx.me.admin;
    const headers = [
      admin && { text: h('input', { type: 'checkbox', id: 'select-all', 'aria-label': 'Select all jobs on this page' }), class: 'check' },
      'Id', 'Queue', { text: 'Attempts', class: 'num' }, 'Failed at', 'Last error', admin && 'Actions',
    ].filter(Boolean);
    return table('failed-table', headers, jobs.map(job => h('tr', { dataset: { jobId: job.id } },
      admin && h('td', { class: 'check' }, h('input', {
        type: 'checkbox', class: 'select-job', value: job.id, checked: selected.has(job.id), 'aria-label': `Select job ${job.id}`,
      })),
      h('td', null, jobLink(job.id, shortId(job.id))),
      h('td', null, job.queue),
      numCell(job.attempts),
      h('td', null, time(job.finishedAt)),
      errorCell(job.lastError),
      admin && h('td', { class: 'row-actions' },
        h('button', { type: 'button', class: 'retry-one', onclick: () => one('retry', job.id) }, 'Retry'),
        h('button', { type: 'button', class: 'delete-one danger', onclick: () => one('delete', job.id) }, 'Delete')))), 'Failed jobs');
  }

  append(ctx.main, h('h1', null, 'Failed jobs'), filterForm('failed-filter', FIELDS, filter, 'failed', ctx.navigate), queueNames(ctx),
    ctx.me.admin && h('div', { class: 'actions bulk' }, retrySelected, deleteSelected,
      h('button', { type: 'button', id: 'retry-matching', onclick: () => matching('retry') }, 'Retry all matching'),
      h('button', { type: 'button', id: 'delete-matching', class: 'danger', onclick: () => matching('delete') }, 'Delete all matching')),
    results, pager.element);

  return async () => {
    const data = await api(`jobs${query({ ...filter, state: 'FAILED', sort: 'put', size: PAGE_SIZE, after: pager.cursor })}`);
    pager.update(data.next);
    jobs = data.jobs;
    const onPage = new Set(jobs.map(job => job.id));
    for (const id of selected) if (!onPage.has(id)) selected.delete(id);
    rerender(results, () => jobs.length ? failedTable() : h('p', { class: 'empty' }, 'No failed jobs match'), JSON.stringify(data));
    updateSelection();
  };
}
