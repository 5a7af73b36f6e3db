// Job page: one job's summary, progress, options, dependencies, errors and (on request) payload, with retry, cancel and delete for admins.
import { api, seg } from './api.js';
import { confirmAction } from './confirm.js';
import { badge, h, jobLink, rerender } from './dom.js';
import { time } from './format.js';

const ERROR_PAGE = 50;
const LINKS_FIRST = 50;
const LINKS_MOST = 500;

export function mount(ctx) {
  const id = ctx.arg;
  ctx.title(`Job ${id}`);
  const body = h('div', { class: 'job' });
  const payload = payloadSection(ctx, id);
  let allErrors = false;
  let linksShown = LINKS_FIRST;
  ctx.main.append(body);
  const loadAll = () => {
    allErrors = true;
    ctx.reload();
  };
  const showMoreLinks = () => {
    linksShown = LINKS_MOST;
    ctx.reload();
  };

  return async () => {
    let job;
    let options;
    try {
      [job, options] = await Promise.all([api(`jobs/${seg(id)}?payload=none`), api(`jobs/${seg(id)}/options?size=${linksShown}`)]);
    } catch (e) {
      if (e.status === 404) rerender(body, () => [h('h1', null, 'Job'), h('p', { class: 'empty' }, `No job ${id}`)], '404');
      throw e;
    }
    const errors = allErrors ? await loadErrors(id, job.errorCount) : job.errors ?? [];
    rerender(body, () => [
      ...header(ctx, job.summary),
      job.progress && progressBar(job.progress),
      details(job.summary, options),
      dependencies(options, linksShown < LINKS_MOST ? showMoreLinks : null),
      payload,
      errorList(job, errors, allErrors ? null : loadAll),
    ], JSON.stringify([job, options, errors]));
  };
}

async function loadErrors(id, count) {
  const errors = [];
  for (let page = 0; errors.length < count; page++) {
    const batch = await api(`jobs/${seg(id)}/errors?page=${page}&size=${ERROR_PAGE}`);
    errors.push(...batch);
    if (batch.length < ERROR_PAGE) break;
  }
  return errors;
}

function header(ctx, job) {
  const actions = ctx.me.admin && h('div', { class: 'actions' },
    (job.state === 'FAILED' || job.state === 'CANCELLED') && h('button', { type: 'button', id: 'retry-job', class: 'primary', onclick: () => retry(ctx, job.id) }, 'Retry'),
    (job.state === 'PENDING' || job.state === 'WAITING') && h('button', { type: 'button', id: 'cancel-job', class: 'danger', onclick: () => cancel(ctx, job.id) }, 'Cancel'),
    job.state !== 'RUNNING' && h('button', { type: 'button', id: 'delete-job', class: 'danger', onclick: () => remove(ctx, job.id) }, 'Delete'));
  return [
    h('h1', null, 'Job ', h('span', { class: 'mono job-id' }, job.id)),
    h('div', { class: 'job-head' }, h('span', { id: 'job-state', class: `badge badge-${job.state.toLowerCase()}` }, job.state), actions),
  ];
}

function retry(ctx, id) {
  return ctx.act(async () => {
    if (!await confirmAction(`Retry job ${id}? It becomes PENDING again with fresh attempts.`, 'Retry 1 job')) return;
    await api(`jobs/${seg(id)}/retry`, { method: 'POST' });
    ctx.status(`Retried job ${id}`);
    await ctx.reload();
  });
}

function cancel(ctx, id) {
  return ctx.act(async () => {
    if (!await confirmAction(`Cancel job ${id}? It will not run, and the jobs waiting for it fail.`, 'Cancel 1 job')) return;
    const answer = await api(`jobs/${seg(id)}/cancel`, { method: 'POST' });
    ctx.status(answer.outcome === 'CANCELLED' ? `Cancelled job ${id}` : `Job ${id} was not cancelled: it is ${answer.outcome}`);
    await ctx.reload();
  });
}

function remove(ctx, id) {
  return ctx.act(async () => {
    if (!await confirmAction(`Delete job ${id}? This cannot be undone; jobs waiting for it no longer do.`, 'Delete 1 job')) return;
    await api(`jobs/${seg(id)}`, { method: 'DELETE' });
    ctx.navigate('#/jobs', `Deleted job ${id}`);
  });
}

function field(label, value) {
  return h('div', null, h('dt', null, label), h('dd', null, value ?? '—'));
}

/** What the job's last attempt reported of its progress: a bar, the percentage, the note as text, and when. */
function progressBar(progress) {
  const percent = Math.round(progress.fraction * 100);
  return h('section', { class: 'panel', id: 'job-progress' },
    h('h2', null, `Progress of attempt ${progress.attempt}`),
    h('progress', { max: 100, value: percent }),
    h('p', null, h('span', { id: 'job-progress-percent' }, `${percent}%`), ' ',
      progress.note ? h('span', { id: 'job-progress-note' }, progress.note) : null,
      ' (', time(progress.reportedAt), ')'));
}

function details(job, options) {
  return h('div', { class: 'panels' },
    h('section', { class: 'panel' }, h('h2', null, 'Summary'), h('dl', { class: 'fields' },
      field('Queue', h('a', { href: `#/jobs?queue=${encodeURIComponent(job.queue)}` }, job.queue)),
      field('Attempts', job.attempts),
      field('Put', time(job.createdAt)),
      field('Due', time(job.runAt)),
      field('Finished', time(job.finishedAt)),
      field('Started', time(options.startedAt)),
      field('Lease expires', time(options.leaseExpiresAt)),
      field('Claimed by', options.claimedBy))),
    h('section', { class: 'panel' }, h('h2', null, 'Options'), h('dl', { class: 'fields' },
      field('Priority', options.priority),
      field('Dedupe key', options.dedupeKey && h('span', { class: 'mono' }, options.dedupeKey)),
      field('Ordering key', options.orderingKey && h('span', { class: 'mono' }, options.orderingKey)),
      field('Group', options.group && h('a', { href: `#/jobs?group=${encodeURIComponent(options.group)}`, class: 'mono' }, options.group)))));
}

function dependencies(options, showMore) {
  return h('div', { class: 'panels' },
    linkPanel('waits-for', 'Waits for', options.waitsFor, showMore),
    linkPanel('waited-by', 'Waited for by', options.waitedBy, showMore));
}

/** One direction of a job's dependencies: how many, the first of them, and a way to see more. */
function linkPanel(id, title, links, showMore) {
  const shown = links.jobs.length;
  const cut = links.total > shown;
  return h('section', { class: 'panel' },
    h('h2', null, `${title} (${links.total.toLocaleString()})`),
    jobList(id, links.jobs),
    cut && h('p', { class: 'muted', id: `${id}-cut` }, `Showing the first ${shown.toLocaleString()} of ${links.total.toLocaleString()}`),
    cut && showMore && h('button', { type: 'button', id: `${id}-more`, onclick: showMore }, `Show up to ${LINKS_MOST.toLocaleString()}`));
}

function jobList(id, jobs) {
  return h('ul', { id, class: 'job-list' }, !jobs?.length
    ? h('li', { class: 'muted' }, 'none')
    : jobs.map(job => job.state == null
      ? h('li', null, h('span', { class: 'mono' }, job.id), ' ', h('span', { class: 'muted' }, 'deleted (counts as DONE)'))
      : h('li', null, jobLink(job.id), ' ', h('span', { class: 'muted' }, job.queue), ' ', badge(job.state))));
}

function errorList(job, errors, loadAll) {
  const more = loadAll && job.errorCount > errors.length;
  return h('section', { class: 'errors' },
    h('h2', null, `Errors (${job.errorCount ?? errors.length})`),
    errors.length === 0 && h('p', { class: 'muted' }, 'No errors kept for this job.'),
    h('ol', { id: 'job-errors', class: 'attempts' }, errors.map(error => h('li', { class: 'attempt', dataset: { attempt: error.attempt } },
      h('div', { class: 'attempt-head' }, `Attempt ${error.attempt}, failed at `, time(error.failedAt)),
      h('pre', { class: 'stack', tabindex: 0 }, error.error)))),
    more && h('button', { type: 'button', id: 'load-errors', onclick: loadAll }, `Load all errors (${job.errorCount})`));
}

/** The payload section, made once per visit so a shown payload stays through live refresh. */
function payloadSection(ctx, id) {
  if (!ctx.me.showPayloads) {
    return h('section', { class: 'payload' }, h('h2', null, 'Payload'),
      h('p', { id: 'payload-hidden', class: 'muted' }, 'Payloads are hidden on this server (jobqueue.dashboard.show-payloads=false)'));
  }
  const area = h('div');
  const show = () => ctx.act(async () => {
    const data = await api(`jobs/${seg(id)}?payload=full`);
    area.replaceChildren(...payloadView(data));
    area.querySelector('pre')?.focus();
  });
  area.append(h('button', { type: 'button', id: 'show-payload', onclick: show }, 'Show payload'));
  return h('section', { class: 'payload' }, h('h2', null, 'Payload'), area);
}

function payloadView(data) {
  if (data.payload == null) return [h('p', { class: 'muted' }, 'This job has no payload.')];
  let text = data.payload;
  try {
    text = JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    // not JSON: shown as it is
  }
  return [
    h('p', { class: 'muted' }, data.payloadTruncated
      ? `Cut to the first ${data.payload.length.toLocaleString()} of ${data.payloadLength.toLocaleString()} characters.`
      : `${(data.payloadLength ?? data.payload.length).toLocaleString()} characters.`),
    h('pre', { id: 'payload', class: 'payload-text', tabindex: 0 }, text),
  ];
}
