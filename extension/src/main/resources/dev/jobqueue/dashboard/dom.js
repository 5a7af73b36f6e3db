// Small helpers that build DOM elements from data without HTML strings.

const SVG_NS = 'http://www.w3.org/2000/svg';

/** Appends children to el: strings become text, null/false/undefined are skipped, arrays are flattened. */
export function append(el, ...children) {
  for (const child of children.flat(Infinity)) {
    if (child == null || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
  return el;
}

function build(el, attrs, children) {
  for (const [name, value] of Object.entries(attrs ?? {})) {
    if (value == null || value === false) continue;
    if (name === 'class') el.setAttribute('class', Array.isArray(value) ? value.filter(Boolean).join(' ') : value);
    else if (name === 'dataset') Object.assign(el.dataset, value);
    else if (name.startsWith('on')) el.addEventListener(name.slice(2), value);
    else if (name === 'value' || name === 'checked' || name === 'indeterminate') el[name] = value;
    else el.setAttribute(name, value === true ? '' : String(value));
  }
  return append(el, children);
}

/** h('a', {href: '#/'}, 'Overview'): an HTML element; "onclick" etc. become event listeners. */
export function h(tag, attrs, ...children) {
  return build(document.createElement(tag), attrs, children);
}

/** The same for SVG elements. */
export function s(tag, attrs, ...children) {
  return build(document.createElementNS(SVG_NS, tag), attrs, children);
}

/** A table inside a horizontally scrolling wrapper. headers: strings or {text, class}. */
export function table(id, headers, rows, caption) {
  const head = h('tr', null, headers.map(col => typeof col === 'string'
    ? h('th', { scope: 'col' }, col)
    : h('th', { scope: 'col', class: col.class }, col.text)));
  return h('div', { class: 'table-wrap' },
    h('table', { id },
      caption && h('caption', { class: 'visually-hidden' }, caption),
      h('thead', null, head),
      h('tbody', null, rows)));
}

/** A table cell holding a right-aligned number. */
export function numCell(value, attrs) {
  return h('td', { class: 'num', ...attrs }, value == null ? '—' : String(value));
}

/** A coloured badge for a job state or a paused/running switch. */
export function badge(text) {
  return text == null ? '—' : h('span', { class: `badge badge-${String(text).toLowerCase()}` }, text);
}

/** A link to a job page. */
export function jobLink(id, text = id) {
  return h('a', { href: `#/job/${encodeURIComponent(id)}`, title: id, class: 'mono' }, text);
}

const renderedKeys = new WeakMap();

/**
 * Replaces the children of container with the result of render(), unless key (the data as JSON, say) is the
 * same as last time, so a live refresh with nothing new keeps scroll positions. If focus was inside, it goes
 * back to the equivalent element (same id, or same class in the row with the same data key, or else the first
 * button of that row) so a refresh or an action does not throw a keyboard user out of the table.
 */
export function rerender(container, render, key) {
  if (key !== undefined && renderedKeys.get(container) === key) return;
  renderedKeys.set(container, key);
  const focused = container.contains(document.activeElement) ? focusSelectors(document.activeElement) : [];
  container.replaceChildren();
  append(container, render());
  for (const selector of focused) {
    const target = container.querySelector(selector);
    if (target) {
      target.focus();
      break;
    }
  }
}

function focusSelectors(el) {
  if (el.id) return [`#${CSS.escape(el.id)}`];
  const row = el.closest('tr');
  const key = row && Object.keys(row.dataset)[0];
  if (!key) return [];
  const attr = `data-${key.replace(/[A-Z]/g, c => `-${c.toLowerCase()}`)}`;
  const rowSelector = `tr[${attr}="${CSS.escape(row.dataset[key])}"]`;
  const own = el.classList[0] ? `.${CSS.escape(el.classList[0])}` : el.localName;
  return [`${rowSelector} ${own}`, `${rowSelector} button`];
}
