// The report's tables in the page: per scenario its pass/fail, the stretch
// rows (variant, set, samples, p95, p99, max, torn share) and its scalar
// metrics, as `harness run --json` gives them.
const fmt = (x) => (typeof x === 'number' ? (Number.isInteger(x) ? String(x) : x.toPrecision(4)) : String(x));

function table(columns, rows) {
  const t = document.createElement('table');
  const head = t.createTHead().insertRow();
  for (const c of columns) head.appendChild(document.createElement('th')).textContent = c;
  const body = t.createTBody();
  for (const r of rows) {
    const tr = body.insertRow();
    for (const cell of r) tr.insertCell().textContent = fmt(cell);
  }
  return t;
}

export function renderTables(root, results) {
  for (const s of results?.scenarios ?? []) {
    const h = root.appendChild(document.createElement('h3'));
    h.textContent = `${s.name} `;
    const verdict = h.appendChild(document.createElement('span'));
    verdict.className = s.pass ? 'pass' : 'fail';
    verdict.textContent = s.pass ? 'pass' : 'FAIL';
    root.appendChild(document.createElement('p')).textContent = s.description;
    if (s.rows?.length) {
      root.appendChild(table(['variant', 'set', 'samples', 'p95', 'p99', 'max', 'torn %'],
        s.rows.map((r) => [r.variant, r.set, r.samples, r.p95, r.p99, r.max, 100 * r.torn_fraction])));
    }
    const scalars = Object.entries(s.metrics ?? {}).filter(([, v]) => typeof v === 'number' || typeof v === 'boolean');
    if (scalars.length) root.appendChild(table(['metric', 'value'], scalars));
    for (const f of s.failures ?? []) root.appendChild(document.createElement('p')).textContent = `FAIL ${f}`;
  }
}
