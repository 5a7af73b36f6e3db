// Formatting of times, ages, numbers and error texts for display.
import { h } from './dom.js';

const local = new Intl.DateTimeFormat(undefined, { dateStyle: 'short', timeStyle: 'medium' });

/** A Date from an API time: an instant ("…Z") or a zoned time ("…+01:00[Europe/Berlin]"); null if absent or bad. */
function parseTime(text) {
  if (text == null || text === '') return null;
  const date = new Date(String(text).replace(/\[[^\]]*\]$/, ''));
  return Number.isNaN(date.getTime()) ? null : date;
}

/** "2026-11-24 15:04:05 UTC" */
function utc(date) {
  return `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** A <time> element showing the time in the browser's zone, with the UTC time as its title; "—" when null. */
export function time(text) {
  const date = parseTime(text);
  if (!date) return text == null || text === '' ? '—' : String(text);
  return h('time', { datetime: date.toISOString(), title: utc(date) }, local.format(date));
}

/** How long ago `from` was at `at`, as "12 s", "3 min", "2 h" or "4 d". */
function age(from, at) {
  const seconds = Math.max(0, Math.floor((parseTime(at) - parseTime(from)) / 1000));
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min`;
  if (seconds < 86400) return `${Math.floor(seconds / 3600)} h`;
  return `${Math.floor(seconds / 86400)} d`;
}

/** The age of `from` at `at` inside a <time> element whose title is the UTC time of `from`; "—" when null. */
export function ageTime(from, at) {
  const date = parseTime(from);
  if (!date || !parseTime(at)) return '—';
  return h('time', { datetime: date.toISOString(), title: utc(date) }, age(from, at));
}

/** "3 jobs", "1 job" */
export function plural(count, noun) {
  return `${count.toLocaleString()} ${noun}${count === 1 ? '' : 's'}`;
}

/** The first line of a (possibly multi-line) text, or "—". */
export function firstLine(text) {
  return text == null || text === '' ? '—' : String(text).split('\n', 1)[0];
}

/** The first 8 characters of a job id. */
export function shortId(id) {
  return String(id).slice(0, 8);
}
