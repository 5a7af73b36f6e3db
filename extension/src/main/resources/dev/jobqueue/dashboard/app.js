// Entry point: loads the user, draws the header, routes #/… to a page module and refreshes it on a timer.
import { api } from './api.js';
import { confirmOpen } from './confirm.js';
import { h } from './dom.js';
import { time } from './format.js';
import { mount as overview } from './overview.js';
import { mount as jobs } from './jobs.js';
import { mount as job } from './job.js';
import { mount as failed } from './failed.js';
import { mount as queues } from './queues.js';
import { mount as nodes } from './nodes.js';
import { mount as schedules } from './schedules.js';

const pages = { '': overview, jobs, job, failed, queues, nodes, schedules };
const main = document.getElementById('page');
const errorBox = document.getElementById('error');
const errorText = document.getElementById('error-text');
const statusBox = document.getElementById('status');
const updated = document.getElementById('updated');
const picker = document.getElementById('refresh');
const STORAGE_KEY = 'jobqueue.dashboard.refresh';

let me = null;
let page = null;            // { refresh } of the page on screen
let loads = Promise.resolve();
let errorFromRefresh = false;
let pendingStatus = null;   // shown by the next route, for actions that navigate
let timer = 0;

function showError(error, fromRefresh = false) {
  errorText.textContent = error instanceof Error ? error.message : String(error);
  errorBox.classList.remove('hidden');
  errorFromRefresh = fromRefresh;
}

function clearError() {
  errorBox.classList.add('hidden');
  errorText.textContent = '';
}

function setStatus(...content) {
  statusBox.replaceChildren(...content.filter(part => part != null));
}

/** Runs an action of the user; its error goes to the banner. */
async function act(action) {
  try {
    await action();
  } catch (e) {
    showError(e);
  }
}

/** Loads the data of the page on screen; source is "navigation", "timer" or "action". */
function refresh(source) {
  loads = loads.then(async () => {
    const current = page;
    if (!current) return;
    try {
      await current.refresh();
      if (current !== page) return;
      updated.replaceChildren('Last updated ', time(new Date().toISOString()));
      if (source === 'navigation' || (source === 'timer' && errorFromRefresh)) clearError();
    } catch (e) {
      if (current === page) showError(e, source === 'timer');
    }
  });
  return loads;
}

/** Goes to hash; message, if any, is shown as the status once there. Re-loads when hash is already current. */
function navigate(hash, message = null) {
  pendingStatus = message;
  const target = new URL(hash, location.href).hash;
  if (target === location.hash) route();
  else location.hash = target;
}

function parseHash() {
  const [path, search = ''] = location.hash.replace(/^#\/?/, '').split(/\?(.*)/s);
  const [name, ...rest] = path.split('/');
  let arg = '';
  try {
    arg = decodeURIComponent(rest.join('/'));
  } catch {
    // a malformed id: treated as no id
  }
  return { name, arg, params: new URLSearchParams(search) };
}

function route() {
  let { name, arg, params } = parseHash();
  if (!(name in pages) || (name === 'job' && !arg)) name = '';
  for (const link of document.querySelectorAll('nav a')) {
    if (link.getAttribute('href') === `#/${name}`) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  setStatus(pendingStatus);
  pendingStatus = null;
  main.replaceChildren();
  const ctx = {
    me, arg, params, main, act, navigate, status: setStatus,
    title: text => { document.title = `${text} · jobqueue`; },
    reload: () => refresh('action'),
  };
  page = { refresh: pages[name](ctx) };
  return refresh('navigation');
}

function schedule() {
  clearTimeout(timer);
  const seconds = Number(picker.value);
  if (seconds > 0 && !document.hidden) timer = setTimeout(tick, seconds * 1000);
}

async function tick() {
  if (!confirmOpen()) await refresh('timer');
  schedule();
}

async function start() {
  try {
    me = await api('me');
  } catch (e) {
    showError(e);
    main.replaceChildren(h('p', null, 'The dashboard could not load who you are. ',
      h('button', { type: 'button', onclick: start }, 'Try again')));
    return;
  }
  clearError();
  const user = document.getElementById('user');
  user.textContent = `${me.user} (${me.admin ? 'admin' : 'viewer'})`;
  if (me.node) user.title = `Answered by node ${me.node}`;
  window.addEventListener('hashchange', route);
  await route();
  schedule();
}

errorBox.querySelector('#error-close').addEventListener('click', clearError);

try {
  const saved = localStorage.getItem(STORAGE_KEY);
  if (saved && [...picker.options].some(option => option.value === saved)) picker.value = saved;
} catch {
  // storage unavailable (privacy mode): the default stands
}

picker.addEventListener('change', () => {
  try {
    localStorage.setItem(STORAGE_KEY, picker.value);
  } catch {
    // storage unavailable: the choice lasts for this page only
  }
  schedule();
});

document.addEventListener('visibilitychange', async () => {
  clearTimeout(timer);
  if (document.hidden || !page) return;
  if (Number(picker.value) > 0 && !confirmOpen()) await refresh('timer');
  schedule();
});

start();
