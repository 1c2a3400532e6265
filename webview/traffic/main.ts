// The protocol traffic viewer's page (src/traffic/trafficPanel.ts opens it): a table of the
// session's messages at every hop, appended live, with a filter and "Save trace…". Everything is
// inserted as text (payloads are untrusted). In test mode the page reports what it shows.
import { rowMatches, type HostToTraffic, type RenderedTrafficRow, type TrafficRow, type TrafficToHost } from '../../src/protocol/traffic';

interface VsCodeApi {
  postMessage(message: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const api = acquireVsCodeApi();
const post = (message: TrafficToHost): void => api.postMessage(message);
const testMode = document.body.dataset.testMode === '1';

const element = <T extends HTMLElement>(id: string): T => {
  const e = document.getElementById(id);
  if (!e) throw new Error(`#${id} missing`);
  return e as T;
};
const titleEl = element<HTMLHeadingElement>('title');
const filterEl = element<HTMLInputElement>('filter');
const countEl = element<HTMLSpanElement>('count');
const rowsEl = element<HTMLTableSectionElement>('rows');

let rows: TrafficRow[] = [];
let dropped = 0;
let unrecorded = 0;
let firstTime: number | undefined;
let reportTimer: ReturnType<typeof setTimeout> | undefined;

const hopOf = (r: TrafficRow): string => `${r.from} → ${r.to}`;
const durationOf = (r: TrafficRow): string | undefined => (r.durationMs === undefined ? undefined : `${r.durationMs} ms`);
const kb = (n: number): string => (n < 1024 ? `${n} B` : `${(n / 1024).toFixed(1)} KB`);

function cell(className: string, text: string): HTMLTableCellElement {
  const td = document.createElement('td');
  td.className = className;
  td.textContent = text;
  return td;
}

function rowElement(r: TrafficRow): HTMLTableRowElement {
  const tr = document.createElement('tr');
  tr.className = `kind-${r.kind}${r.error !== undefined ? ' error' : ''}`;
  tr.dataset.seq = String(r.seq);
  firstTime ??= r.time;
  tr.append(cell('time', `+${((r.time - firstTime) / 1000).toFixed(3)} s`), cell('hop', hopOf(r)));
  const method = cell('method', '');
  const arrow = document.createElement('span');
  arrow.className = 'arrow';
  arrow.textContent = `${r.method || '(response)'}${r.id !== undefined ? ` #${r.id}` : ''}${r.error !== undefined ? ` — error: ${r.error}` : ''}`;
  method.append(arrow);
  tr.append(method, cell('dur', durationOf(r) ?? ''));
  const payload = document.createElement('td');
  payload.className = 'payload';
  const pre = document.createElement('pre');
  pre.textContent = r.payload;
  if (r.large) {
    const details = document.createElement('details');
    const summary = document.createElement('summary');
    summary.textContent = `${r.preview} (${kb(r.bytes)}${r.truncated ? ', cut for display' : ''})`;
    details.append(summary, pre);
    payload.append(details);
  } else {
    // Small enough for one line: the params (or result) as compact JSON, the whole message on hover.
    const line = document.createElement('code');
    line.textContent = r.preview || '(no params)';
    line.title = r.payload;
    payload.append(line);
  }
  tr.append(payload);
  return tr;
}

function updateCount(): void {
  const shown = rowsEl.childElementCount;
  countEl.textContent =
    `${shown} of ${rows.length} messages` +
    (dropped ? `; ${dropped} older messages of this conductor no longer kept` : '') +
    (unrecorded ? `; ${unrecorded} trace lines of this conductor not recorded (the editor fell behind reading its trace)` : '');
}

function renderAll(): void {
  rowsEl.replaceChildren(...rows.filter((r) => rowMatches(r, filterEl.value)).map(rowElement));
  updateCount();
  report();
}

function append(newRows: TrafficRow[]): void {
  // A session/new is shown once its answer says which session it made, so it can arrive after
  // later messages: then the table is rebuilt in order.
  const last = rows[rows.length - 1]?.seq ?? 0;
  if (newRows.some((r) => r.seq < last)) {
    rows = [...rows, ...newRows].sort((a, b) => a.seq - b.seq);
    return renderAll();
  }
  rows.push(...newRows);
  const atBottom = window.innerHeight + window.scrollY >= document.body.scrollHeight - 40;
  rowsEl.append(...newRows.filter((r) => rowMatches(r, filterEl.value)).map(rowElement));
  if (atBottom) window.scrollTo(0, document.body.scrollHeight);
  updateCount();
  report();
}

/** Test mode: what the table shows now (soon after the last change). */
function report(): void {
  if (!testMode) return;
  clearTimeout(reportTimer);
  reportTimer = setTimeout(() => {
    const shown: RenderedTrafficRow[] = rows
      .filter((r) => rowMatches(r, filterEl.value))
      .map((r) => ({
        seq: r.seq,
        hop: hopOf(r),
        kind: r.kind,
        method: r.method,
        payload: r.payload,
        collapsed: r.large,
        ...(durationOf(r) !== undefined ? { duration: durationOf(r)! } : {}),
      }));
    post({ type: 'rendered', filter: filterEl.value, rows: shown });
  }, 50);
}

// From the host (trusted, but a malformed message must not break the page: shapes are checked).
window.addEventListener('message', (event: MessageEvent<unknown>) => {
  const m = event.data as {
    type?: unknown;
    rows?: unknown;
    dropped?: unknown;
    unrecorded?: unknown;
    title?: unknown;
    filter?: unknown;
  } | null;
  if (!m || typeof m !== 'object') return;
  if (m.type === 'set-filter' && testMode && typeof m.filter === 'string') {
    filterEl.value = m.filter;
    return renderAll();
  }
  if (!Array.isArray(m.rows)) return;
  const message = m as HostToTraffic & { rows: TrafficRow[] };
  if (typeof m.dropped === 'number') dropped = m.dropped;
  if (typeof m.unrecorded === 'number') unrecorded = m.unrecorded;
  if (message.type === 'reset') {
    titleEl.textContent = `Protocol traffic: ${typeof m.title === 'string' ? m.title : ''}`;
    rows = [...message.rows].sort((a, b) => a.seq - b.seq);
    firstTime = rows[0]?.time;
    renderAll();
  } else if (message.type === 'append') append(message.rows);
});

filterEl.addEventListener('input', () => renderAll());
element<HTMLButtonElement>('save').addEventListener('click', () => post({ type: 'save' }));
post({ type: 'ready' });
