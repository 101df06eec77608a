import { createHash } from 'node:crypto';

/**
 * The inspector page served at /__admin/ui: one self-contained document (no framework, no CDN,
 * works offline) that drives the control API, and the control API only. Every value from the
 * state is put in the page as text, never as HTML: names in a seed can contain markup.
 */

const STYLE = `
  :root { font: 14px/1.4 system-ui, sans-serif; color: #1d2433; background: #f5f6f8; }
  body { margin: 0; }
  header { display: flex; gap: 1rem; align-items: center; padding: .75rem 1.25rem; background: #1d2433; color: #fff; }
  header h1 { font-size: 1rem; margin: 0 auto 0 0; font-weight: 600; }
  header select, header button { font: inherit; }
  main { display: grid; grid-template-columns: 1fr 1fr; gap: 1rem; padding: 1rem 1.25rem; }
  section { background: #fff; border-radius: 6px; padding: .75rem 1rem; box-shadow: 0 1px 2px #0002; overflow: auto; max-height: 24rem; }
  section.wide { grid-column: 1 / -1; }
  h2 { font-size: .95rem; margin: 0 0 .5rem; }
  table { border-collapse: collapse; width: 100%; }
  th, td { text-align: left; padding: .2rem .4rem; border-bottom: 1px solid #e5e7eb; vertical-align: top; }
  th { font-weight: 600; color: #4b5563; }
  .filters { display: flex; gap: .5rem; margin-bottom: .5rem; flex-wrap: wrap; }
  .status-Unsubscribed { color: #b91c1c; }
  .fault { color: #b45309; font-weight: 600; }
  .bad { color: #b91c1c; }
  img.thumb { width: 32px; height: 32px; border: 1px solid #ddd; image-rendering: pixelated; }
  button { cursor: pointer; }
  #outage.on { background: #b91c1c; color: #fff; }
  #journal-section { max-height: none; }
  #journal tr[data-id] { cursor: pointer; }
  #journal tr.selected { background: #e0e7ff; }
  #journal-filter { flex: 1; font: inherit; }
  #exchange { display: grid; grid-template-columns: 1fr 1fr; gap: 1rem; }
  #exchange[hidden] { display: none; }
  #exchange pre { background: #f5f6f8; padding: .5rem; margin: .25rem 0; white-space: pre-wrap; word-break: break-all; max-height: 18rem; overflow: auto; }
  #exchange h3 { font-size: .85rem; margin: .25rem 0; }
`;

const SCRIPT = `
'use strict';
const token = new URLSearchParams(location.search).get('token');
// Read once, then out of the address bar (and so out of history, bookmarks and screen shares).
if (token !== null) {
  const rest = new URLSearchParams(location.search);
  rest.delete('token');
  history.replaceState(null, '', location.pathname + (rest.size ? '?' + rest : '') + location.hash);
}
const auth = token ? { authorization: 'Bearer ' + token } : {};
let state = { servers: [] };
let faults = [];

async function admin(method, path, body) {
  const response = await fetch('/__admin' + path, {
    method,
    headers: body === undefined ? auth : { ...auth, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(method + ' ' + path + ': ' + response.status);
  return response.status === 204 ? null : response.json();
}

function el(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = String(text);
  if (className) node.className = className;
  return node;
}

function table(id, head, rows) {
  const target = document.getElementById(id);
  target.replaceChildren();
  const header = el('tr');
  for (const name of head) header.append(el('th', name));
  target.append(header);
  for (const cells of rows) {
    const row = el('tr');
    for (const cell of cells) row.append(cell instanceof Node ? wrap(cell) : el('td', cell));
    target.append(row);
  }
}

function wrap(node) {
  const cell = el('td');
  cell.append(node);
  return cell;
}

function current() {
  const id = Number(document.getElementById('server').value);
  return state.servers.find((server) => server.serverId === id) ?? state.servers[0];
}

function renderServers() {
  const select = document.getElementById('server');
  const chosen = select.value;
  select.replaceChildren(...state.servers.map((server) => {
    const option = el('option', server.serverId);
    option.value = server.serverId;
    return option;
  }));
  if (state.servers.some((server) => String(server.serverId) === chosen)) select.value = chosen;
}

function renderServer() {
  const server = current();
  if (!server) return;
  const contacts = server.contacts ?? [];
  const lists = server.lists ?? [];
  table('lists', ['Id', 'Name', 'Members'], lists.map((list) => [
    list.id, list.name, contacts.filter((contact) => (contact.lists ?? []).includes(list.id)).length,
  ]));
  table('fields', ['Id', 'Name'], (server.customFields ?? []).map((field) => [field.customFieldNameId, field.name]));
  const listFilter = document.getElementById('list-filter');
  const chosenList = listFilter.value;
  listFilter.replaceChildren(el('option', 'Any list'), ...lists.map((list) => {
    const option = el('option', list.name);
    option.value = list.id;
    return option;
  }));
  listFilter.firstChild.value = '';
  listFilter.value = lists.some((list) => String(list.id) === chosenList) ? chosenList : '';
  const query = document.getElementById('search').value.trim().toLowerCase();
  const status = document.getElementById('status').value;
  const shown = contacts.filter((contact) =>
    (!status || contact.status === status) &&
    (!listFilter.value || (contact.lists ?? []).includes(Number(listFilter.value))) &&
    (!query || contact.emailAddress.toLowerCase().includes(query) ||
      Object.values(contact.customFields ?? {}).some((value) => value.toLowerCase().includes(query))));
  table('contacts', ['Id', 'Email address', 'Status', 'Lists', 'Custom fields'], shown.map((contact) => [
    contact.contactId,
    contact.emailAddress,
    el('span', contact.status, 'status-' + contact.status),
    (contact.lists ?? []).map((id) => lists.find((list) => list.id === id)?.name ?? id).join(', '),
    Object.entries(contact.customFields ?? {}).map(([name, value]) => name + ': ' + value).join('; '),
  ]));
  renderContent(server);
}

// Thumbnail URLs come from the control API: the page never calls the emulated API, so nothing it
// does lands in the journal. Fetched only when the server or its content changed.
let contentShown = '';
async function renderContent(server) {
  const key = server.serverId + ':' + JSON.stringify(server.content ?? []);
  if (key === contentShown) return;
  contentShown = key;
  let thumbnails = {};
  try {
    const content = await admin('GET', '/servers/' + server.serverId + '/content');
    thumbnails = Object.fromEntries(content.map((item) => [item.id, item.thumbnailUrl]));
  } catch {}
  table('content', ['Id', 'Name', 'Updated', 'Thumbnail'], (server.content ?? []).map((item) => {
    if (!thumbnails[item.id]) return [item.id, item.name, item.updated, '-'];
    const image = el('img', undefined, 'thumb');
    image.alt = 'thumbnail of ' + item.name;
    image.src = thumbnails[item.id];
    return [item.id, item.name, item.updated, image];
  }));
}

function renderFaults() {
  table('faults', ['Id', 'Kind', 'Match', 'Hits', ''], faults.map((fault) => {
    const remove = el('button', 'Remove');
    remove.type = 'button';
    remove.addEventListener('click', async () => { await admin('DELETE', '/faults/' + fault.id); await refresh(); });
    return [fault.id, el('span', fault.kind, 'fault'), JSON.stringify(fault.match ?? {}), fault.hits, remove];
  }));
  const outage = document.getElementById('outage');
  const on = faults.some(isOutage);
  outage.classList.toggle('on', on);
  outage.textContent = on ? 'Stop maintenance' : 'Start maintenance';
}

const isOutage = (fault) => fault.kind === 'unavailable' && !fault.match;

async function refresh() {
  [state, faults] = await Promise.all([admin('GET', '/state'), admin('GET', '/faults')]);
  renderServers();
  renderServer();
  renderFaults();
}

let journal = [];
let selected = null;

// The filter box takes the query syntax of GET /__admin/requests; the control API checks it.
async function pollJournal() {
  const filter = document.getElementById('journal-filter').value.trim().replace(/^\\?/, '');
  const response = await fetch('/__admin/requests' + (filter ? '?' + filter : ''), { headers: auth }).catch(() => null);
  if (!response) return;
  const body = await response.json().catch(() => null);
  document.getElementById('journal-error').textContent = response.ok ? '' : (body?.message ?? response.status);
  if (!response.ok || !Array.isArray(body)) return;
  journal = body.slice(-50).reverse();
  renderJournal();
}

function renderJournal() {
  table('journal', ['#', 'Time', 'Method', 'Path', 'Operation', 'Server', 'Status', 'Fault', 'ms'], []);
  const target = document.getElementById('journal');
  for (const entry of journal) {
    const row = el('tr');
    row.dataset.id = String(entry.id);
    if (entry.id === selected) row.className = 'selected';
    const cells = [
      entry.id, entry.time, entry.method, entry.path + (entry.queryString ? '?' + entry.queryString : ''),
      entry.operation ?? '', entry.serverId ?? '', el('span', entry.status, entry.status >= 400 || entry.status === 0 ? 'bad' : ''),
      entry.fault ?? '', Math.round(entry.durationMs * 10) / 10,
    ];
    for (const cell of cells) row.append(cell instanceof Node ? wrap(cell) : el('td', cell));
    row.addEventListener('click', () => { selected = entry.id; renderJournal(); renderExchange(entry); });
    target.append(row);
  }
}

function renderExchange(entry) {
  const { request, response } = entry;
  document.getElementById('exchange').hidden = false;
  const target = entry.path + (entry.queryString ? '?' + entry.queryString : '');
  document.getElementById('exchange-request-line').textContent = '#' + entry.id + ' ' + entry.method + ' ' + target + ' HTTP/1.1';
  document.getElementById('exchange-request-headers').textContent = headerLines(request.headers);
  document.getElementById('exchange-request-body').textContent = bodyText(request);
  const fault = entry.fault ? ' (injected fault: ' + entry.fault + ')' : '';
  document.getElementById('exchange-status-line').textContent = (response.status === 0 ? 'No response' : 'HTTP/1.1 ' + response.status) + fault +
    ' · ' + entry.format.toUpperCase() + ' · ' + (Math.round(entry.durationMs * 10) / 10) + ' ms' + (entry.operation ? ' · ' + entry.operation : '');
  document.getElementById('exchange-response-headers').textContent = headerLines(response.headers);
  document.getElementById('exchange-response-body').textContent = bodyText(response);
}

function headerLines(headers) {
  return Object.entries(headers).flatMap(([name, value]) => [].concat(value).map((one) => name + ': ' + one)).join('\\n') || '(no headers)';
}

// Bodies are shown as text only (textContent): a body can hold markup, and must stay inert here.
function bodyText(message) {
  if (message.body === undefined) return '(no body)';
  const size = message.bodySize === undefined ? '' : ' [' + message.bodySize + ' bytes' + (message.bodyTruncated ? ', cut off' : '') + ']';
  if (message.bodyEncoding === 'base64') return '(binary, base64)' + size + '\\n' + message.body;
  if (typeof message.body !== 'string') return JSON.stringify(message.body, null, 2) + size;
  const text = message.body;
  if (text.startsWith('<?xml') || text.startsWith('<')) return prettyXml(text) + size;
  try { return JSON.stringify(JSON.parse(text), null, 2) + size; } catch { return text + size; }
}

function prettyXml(text) {
  let depth = 0;
  return text.replace(/>\\s*</g, '>\\n<').split('\\n').map((line) => {
    if (line.startsWith('</')) depth = Math.max(0, depth - 1);
    const indented = '  '.repeat(depth) + line;
    if (line.startsWith('<') && !line.startsWith('</') && !line.startsWith('<?') && !line.endsWith('/>') && !line.includes('</')) depth += 1;
    return indented;
  }).join('\\n');
}

document.getElementById('server').addEventListener('change', renderServer);
document.getElementById('journal-form').addEventListener('submit', (event) => { event.preventDefault(); pollJournal(); });
document.getElementById('journal-filter').addEventListener('input', pollJournal);
for (const id of ['search', 'status', 'list-filter']) document.getElementById(id).addEventListener('input', renderServer);
document.getElementById('outage').addEventListener('click', async () => {
  const outages = faults.filter(isOutage);
  if (outages.length > 0) for (const fault of outages) await admin('DELETE', '/faults/' + fault.id);
  else await admin('POST', '/maintenance', {});
  await refresh();
});
document.getElementById('fault-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const kind = document.getElementById('fault-kind').value;
  const path = document.getElementById('fault-path').value.trim();
  const value = document.getElementById('fault-value').value.trim();
  const times = document.getElementById('fault-times').value.trim();
  const rule = { kind };
  if (path) rule.match = { path };
  if (kind === 'status') rule.status = Number(value);
  if (kind === 'delay') rule.delayMs = Number(value);
  if (times) rule.times = Number(times);
  const response = await fetch('/__admin/faults', {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify(rule),
  });
  // A bad rule is refused by the control API; show its message rather than fail silently.
  document.getElementById('fault-error').textContent = response.ok ? '' : (await response.json()).message;
  await refresh();
});
document.getElementById('clear-faults').addEventListener('click', async () => { await admin('DELETE', '/faults'); await refresh(); });
document.getElementById('reset').addEventListener('click', async () => { await admin('POST', '/reset'); await refresh(); });

refresh();
pollJournal();
setInterval(pollJournal, 1000);
setInterval(refresh, 3000);
`;

export const INSPECTOR_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>fake-marketing-server inspector</title>
<style>${STYLE}</style>
</head>
<body>
<header>
  <h1>fake-marketing-server inspector</h1>
  <label>Server <select id="server"></select></label>
  <button id="outage" type="button">Start maintenance</button>
  <button id="clear-faults" type="button">Clear faults</button>
  <button id="reset" type="button">Reset</button>
</header>
<main>
  <section><h2>Lists</h2><table id="lists"></table></section>
  <section><h2>Custom fields</h2><table id="fields"></table></section>
  <section class="wide">
    <h2>Contacts</h2>
    <div class="filters">
      <input id="search" type="search" placeholder="Email or field value">
      <select id="status"><option value="">Any status</option><option>Active</option><option>Unsubscribed</option></select>
      <select id="list-filter"><option value="">Any list</option></select>
    </div>
    <table id="contacts"></table>
  </section>
  <section><h2>Content</h2><table id="content"></table></section>
  <section>
    <h2>Faults</h2>
    <form id="fault-form" class="filters">
      <select id="fault-kind">
        <option>unavailable</option><option>no-response</option><option>reset</option>
        <option>delay</option><option>status</option><option>malformed</option>
      </select>
      <input id="fault-path" placeholder="Path glob, e.g. /lists/**" size="16">
      <input id="fault-value" placeholder="status / delayMs" size="10">
      <input id="fault-times" placeholder="times" size="5">
      <button type="submit">Add fault</button>
      <span id="fault-error" class="bad"></span>
    </form>
    <table id="faults"></table>
  </section>
  <section class="wide" id="journal-section">
    <h2>Request journal <small>(live; click a row for the whole exchange)</small></h2>
    <form id="journal-form" class="filters">
      <input id="journal-filter" type="search" placeholder="Filter, as GET /__admin/requests takes it: operation=addToListByEmail&amp;status=4xx&amp;body={&quot;emailAddress&quot;:&quot;ann@example.com&quot;}">
      <span id="journal-error" class="bad"></span>
    </form>
    <div id="exchange" hidden>
      <div><h3 id="exchange-request-line"></h3><pre id="exchange-request-headers"></pre><pre id="exchange-request-body"></pre></div>
      <div><h3 id="exchange-status-line"></h3><pre id="exchange-response-headers"></pre><pre id="exchange-response-body"></pre></div>
    </div>
    <table id="journal"></table>
  </section>
</main>
<script>${SCRIPT}</script>
</body>
</html>
`;

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/**
 * The page's Content-Security-Policy: its own script and style (by hash, nothing else inline),
 * calls and images from the fake itself, and no framing by any page (clickjacking).
 */
export const INSPECTOR_POLICY = [
  "default-src 'none'",
  `script-src ${sha256(SCRIPT)}`,
  `style-src ${sha256(STYLE)}`,
  "img-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');
