// Nodes page: the nodes holding leases on running jobs, and the node that answered.
import { api } from './api.js';
import { h, numCell, rerender, table } from './dom.js';

export function mount(ctx) {
  ctx.title('Nodes');
  const results = h('div');
  ctx.main.append(h('h1', null, 'Nodes'),
    h('p', { class: 'note' }, 'A node appears here while it holds leases on running jobs; the node that answered this ',
      'page is always listed. An idle node that runs nothing is not seen.'),
    results);

  return async () => {
    const nodes = await api('nodes');
    rerender(results, () => table('nodes-table', ['Node', { text: 'Running', class: 'num' }, 'Note'],
      nodes.map(node => h('tr', { dataset: { node: node.node } },
        h('th', { scope: 'row', class: 'mono' }, node.node),
        numCell(node.running ?? 0),
        h('td', null, node.thisNode && h('span', { class: 'badge badge-this' }, 'this node')))), 'Nodes'),
    JSON.stringify(nodes));
  };
}
