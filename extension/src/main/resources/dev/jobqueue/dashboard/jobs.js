// Jobs page: a filter kept in the URL, one page of jobs at a time; also exports the filter form and pager it shares with Failed.
import { api, query } from './api.js';
import { badge, h, jobLink, numCell, rerender, table } from './dom.js';
import { firstLine, shortId, time } from './format.js';

const STATES = ['WAITING', 'PENDING', 'RUNNING', 'DONE', 'FAILED', 'CANCELLED'];
const PAGE_SIZE = 50;

const FIELDS = [
  { name: 'queue', label: 'Queue', list: 'queue-names' },
  { name: 'state', label: 'State', options: [['', 'Any'], ...STATES.map(state => [state, state])] },
  { name: 'id', label: 'Job id' },
  { name: 'dedupeKey', label: 'Dedupe key' },
  { name: 'orderingKey', label: 'Ordering key' },
  { name: 'group', label: 'Group' },
  { name: 'sort', label: 'Order', options: [['put', 'Newest put first'], ['due', 'Due soonest first']], default: 'put' },
];

export function mount(ctx) {
  ctx.title('Jobs');
  const filter = readFilter(ctx.params, FIELDS);
  const pager = createPager(ctx.reload);
  const results = h('div');
  ctx.main.append(h('h1', null, 'Jobs'),
    filterForm('jobs-filter', FIELDS, filter, 'jobs', ctx.navigate), queueNames(ctx), results, pager.element);

  return async () => {
    const data = await api(`jobs${query({ ...filter, size: PAGE_SIZE, after: pager.cursor })}`);
    pager.update(data.next);
    rerender(results, () => data.jobs.length ? jobsTable(data.jobs) : h('p', { class: 'empty' }, 'No jobs match'));
  };
}

function jobsTable(jobs) {
  const headers = ['Id', 'Queue', 'State', { text: 'Attempts', class: 'num' }, 'Due', 'Put', 'Finished',
    'Dedupe key', 'Ordering key', 'Group', 'Last error'];
  return table('jobs-table', headers, jobs.map(job => h('tr', { dataset: { jobId: job.id } },
    h('td', null, jobLink(job.id, shortId(job.id))),
    h('td', null, job.queue),
    h('td', null, badge(job.state), job.progress != null
      && h('progress', { class: 'row-progress', max: 100, value: Math.round(job.progress * 100), title: `${Math.round(job.progress * 100)}%` })),
    numCell(job.attempts),
    h('td', null, time(job.runAt)),
    h('td', null, time(job.createdAt)),
    h('td', null, time(job.finishedAt)),
    h('td', { class: 'mono' }, job.dedupeKey ?? '—'),
    h('td', { class: 'mono' }, job.orderingKey ?? '—'),
    h('td', { class: 'mono' }, job.group ?? '—'),
    errorCell(job.lastError))), 'Jobs');
}

/** A cell with the first line of an error, cut by CSS; the whole first line is its title. */
export function errorCell(error) {
  const line = firstLine(error);
  return h('td', { class: 'error-line', title: error == null ? null : line }, line);
}

/** The <datalist id="queue-names"> that the queue field suggests from, filled from GET queues. */
export function queueNames(ctx) {
  const list = h('datalist', { id: 'queue-names' });
  ctx.act(async () => {
    const queues = await api('queues');
    list.replaceChildren(...queues.map(q => h('option', { value: q.queue })));
  });
  return list;
}

/** The values of fields found in the URL parameters (unknown parameters are ignored). */
export function readFilter(params, fields) {
  return Object.fromEntries(fields.filter(field => params.get(field.name))
    .map(field => [field.name, params.get(field.name)]));
}

/** A filter form whose submit writes the non-default values into #/route?… and whose Clear goes to #/route. */
export function filterForm(id, fields, values, route, navigate) {
  const form = h('form', { id, class: 'filter' },
    fields.map(field => {
      const inputId = `${id}-${field.name}`;
      const value = values[field.name] ?? field.default ?? '';
      const input = field.options
        ? h('select', { id: inputId, name: field.name },
          field.options.map(([optionValue, text]) => h('option', { value: optionValue, selected: optionValue === value }, text)))
        : h('input', { id: inputId, name: field.name, type: 'text', value, list: field.list, autocomplete: 'off', spellcheck: 'false' });
      return h('div', { class: 'field' }, h('label', { for: inputId }, field.label), input);
    }),
    h('div', { class: 'field buttons' },
      h('button', { type: 'submit', class: 'primary' }, 'Filter'),
      h('button', { type: 'button', onclick: () => navigate(`#/${route}`) }, 'Clear')));
  form.addEventListener('submit', event => {
    event.preventDefault();
    const entries = fields.map(field => [field.name, form.elements[field.name].value.trim()])
      .filter(([name, value]) => value !== (fields.find(field => field.name === name).default ?? ''));
    navigate(`#/${route}${query(Object.fromEntries(entries))}`);
  });
  return form;
}

/** Previous/Next buttons over keyset pages: the cursors of the pages before are kept on a stack. */
export function createPager(reload) {
  const stack = [];
  let cursor = null;
  let next = null;
  let busy = false;
  const go = move => async () => {
    if (busy) return;
    busy = true;
    move();
    await reload();
    busy = false;
  };
  const previous = h('button', { type: 'button', id: 'prev-page', disabled: true, onclick: go(() => { cursor = stack.pop() ?? null; }) }, '← Previous');
  const forward = h('button', { type: 'button', id: 'next-page', disabled: true, onclick: go(() => { stack.push(cursor); cursor = next; }) }, 'Next →');
  const label = h('span', { class: 'page-number' }, 'Page 1');
  return {
    element: h('div', { class: 'pager' }, previous, label, forward),
    get cursor() { return cursor; },
    update(nextCursor) {
      next = nextCursor ?? null;
      previous.disabled = stack.length === 0;
      forward.disabled = next === null;
      label.textContent = `Page ${stack.length + 1}`;
    },
  };
}
