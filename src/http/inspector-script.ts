/**
 * The inspector page's script (see inspector-page.ts, which serves it with its hash in the page's
 * policy). It polls gently, whatever the size of the state and of the journal:
 * - one poll at a time: the next is scheduled only once the last has ended, never on a fixed
 *   interval that piles calls onto a server that is slow to answer;
 * - not while the tab is hidden, and at once when it is shown again;
 * - less often while calls are slow: the pause after a poll is ten times what it took, within
 *   bounds, so the page never takes more than a tenth of the fake's time;
 * - only what it shows: the servers' counts, one server's overview (bounded by the control API)
 *   and the journal entries that arrived since its last read, without their bodies; an
 *   exchange's bodies are read when its row is clicked.
 */
export const SCRIPT = `
'use strict';
const token = new URLSearchParams(location.search).get('token');
// Read once, then out of the address bar (and so out of history, bookmarks and screen shares).
if (token !== null) {
  const rest = new URLSearchParams(location.search);
  rest.delete('token');
  history.replaceState(null, '', location.pathname + (rest.size ? '?' + rest : '') + location.hash);
}
const auth = token ? { authorization: 'Bearer ' + token } : {};
let servers = [];
let overview = null;
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

// ---- polling: one at a time, paused while hidden, slower while calls are slow ----------------

const JOURNAL_EVERY_MS = 1000;
const STATE_EVERY_MS = 3000;
const SLOWEST_EVERY_MS = 30000;
const PAUSE_PER_CALL_MS = 10;
let timer;
let polling = false;
let pollAgain = false;
let stateWanted = true;
let stateReadAt = -Infinity;

/** A poll as soon as the one running (if any) has ended; with the state when \`state\`. */
function pollSoon(state) {
  if (state) stateWanted = true;
  schedule(0);
}

function schedule(delayMs) {
  clearTimeout(timer);
  timer = undefined;
  // Hidden, the page does not poll at all: visibilitychange starts it again.
  if (document.visibilityState === 'hidden') return;
  timer = setTimeout(poll, delayMs);
}

async function poll() {
  timer = undefined;
  if (polling) {
    pollAgain = true;
    return;
  }
  polling = true;
  const started = performance.now();
  try {
    await pollJournal();
    if (stateWanted || performance.now() - stateReadAt >= STATE_EVERY_MS) {
      stateWanted = false;
      stateReadAt = performance.now();
      await refresh();
    }
  } catch {}
  polling = false;
  const took = performance.now() - started;
  if (pollAgain) {
    pollAgain = false;
    schedule(0);
    return;
  }
  schedule(Math.min(SLOWEST_EVERY_MS, Math.max(JOURNAL_EVERY_MS, took * PAUSE_PER_CALL_MS)));
}

document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'hidden') schedule(0);
  else pollSoon(true);
});

// ---- servers and the chosen server's overview ------------------------------------------------

function chosenId() {
  const chosen = document.getElementById('server').value;
  return servers.some((server) => String(server.serverId) === chosen) ? chosen : servers[0]?.serverId;
}

function renderServers() {
  const select = document.getElementById('server');
  const chosen = select.value;
  const shown = [...select.options].map((option) => option.value).join();
  if (shown !== servers.map((server) => server.serverId).join()) {
    select.replaceChildren(...servers.map((server) => {
      const option = el('option', server.serverId);
      option.value = server.serverId;
      return option;
    }));
  }
  if (servers.some((server) => String(server.serverId) === chosen)) select.value = chosen;
}

function overviewQuery() {
  const query = new URLSearchParams();
  const search = document.getElementById('search').value.trim();
  const status = document.getElementById('status').value;
  const list = document.getElementById('list-filter').value;
  if (search) query.set('search', search.slice(0, 256));
  if (status) query.set('status', status);
  if (list) query.set('listId', list);
  return query.size ? '?' + query : '';
}

async function refresh() {
  servers = await admin('GET', '/servers');
  renderServers();
  const id = chosenId();
  overview = id === undefined ? null : await admin('GET', '/servers/' + id + '/overview' + overviewQuery());
  renderServer();
  faults = await admin('GET', '/faults');
  renderFaults();
}

function renderServer() {
  if (!overview) return;
  const { lists, contacts } = overview;
  table('lists', ['Id', 'Name', 'Members'], lists.map((list) => [list.id, list.name, list.members]));
  table('fields', ['Id', 'Name'], overview.customFields.map((field) => [field.customFieldNameId, field.name]));
  const listFilter = document.getElementById('list-filter');
  const chosenList = listFilter.value;
  listFilter.replaceChildren(el('option', 'Any list'), ...lists.map((list) => {
    const option = el('option', list.name);
    option.value = list.id;
    return option;
  }));
  listFilter.firstChild.value = '';
  listFilter.value = lists.some((list) => String(list.id) === chosenList) ? chosenList : '';
  table('contacts', ['Id', 'Email address', 'Status', 'Lists', 'Custom fields'], contacts.map((contact) => [
    contact.contactId,
    contact.emailAddress,
    el('span', contact.status, 'status-' + contact.status),
    contact.lists.map((id) => lists.find((list) => list.id === id)?.name ?? id).join(', '),
    Object.entries(contact.customFields).map(([name, value]) => name + ': ' + value).join('; '),
  ]));
  document.getElementById('contacts-note').textContent = overview.moreContacts
    ? 'The first ' + contacts.length + ' matching contacts; more match (the server holds ' + overview.counts.contacts + '). Narrow the search to see others.'
    : '';
  renderContent();
}

// Thumbnail URLs are minted anew by every overview: the table is redrawn only when the content
// itself changed, so the images are not fetched again every few seconds.
let contentShown = '';
function renderContent() {
  const items = overview.content;
  const key = overview.serverId + ':' + JSON.stringify(items.map(({ id, name, updated }) => [id, name, updated]));
  if (key === contentShown) return;
  contentShown = key;
  table('content', ['Id', 'Name', 'Updated', 'Thumbnail'], items.map((item) => {
    const image = el('img', undefined, 'thumb');
    image.alt = 'thumbnail of ' + item.name;
    image.src = item.thumbnailUrl;
    return [item.id, item.name, item.updated, image];
  }));
}

function renderFaults() {
  table('faults', ['Id', 'Kind', 'Match', 'Hits', ''], faults.map((fault) => {
    const remove = el('button', 'Remove');
    remove.type = 'button';
    remove.addEventListener('click', async () => { await admin('DELETE', '/faults/' + fault.id); pollSoon(true); });
    return [fault.id, el('span', fault.kind, 'fault'), JSON.stringify(fault.match ?? {}), fault.hits, remove];
  }));
  const outage = document.getElementById('outage');
  const on = faults.some(isOutage);
  outage.classList.toggle('on', on);
  outage.textContent = on ? 'Stop maintenance' : 'Start maintenance';
}

const isOutage = (fault) => fault.kind === 'unavailable' && !fault.match;

// ---- the journal: what arrived since the last read, without bodies ---------------------------

const SHOWN_ENTRIES = 50;
let journal = [];
let journalFilter = null;
let newestRead = 0;
let selected = null;

// The filter box takes the query syntax of GET /__admin/requests; the control API checks it.
const filterText = () => document.getElementById('journal-filter').value.trim().replace(/^\\?/, '');

async function pollJournal() {
  const filter = filterText();
  if (filter !== journalFilter) {
    journalFilter = filter;
    journal = [];
    newestRead = 0;
  }
  const query = new URLSearchParams(filter);
  if (newestRead > 0) query.set('sinceId', String(Math.max(newestRead, Number(query.get('sinceId')) || 0)));
  query.set('last', String(SHOWN_ENTRIES));
  query.set('bodies', 'none');
  const response = await fetch('/__admin/requests?' + query, { headers: auth }).catch(() => null);
  if (!response) return;
  const body = await response.json().catch(() => null);
  // The filter changed while this read was out: its answer is for the old one.
  if (filter !== journalFilter) return;
  document.getElementById('journal-error').textContent = response.ok ? '' : (body?.message ?? response.status);
  if (!response.ok || !Array.isArray(body)) return;
  // Entries below the oldest the journal holds were cleared or dropped: the page lets them go too.
  const oldest = Number(response.headers.get('journal-oldest-id')) || 0;
  const kept = journal.filter((entry) => entry.id >= oldest);
  if (body.length === 0 && kept.length === journal.length && newestRead > 0) return;
  for (const entry of body) newestRead = Math.max(newestRead, entry.id);
  if (newestRead === 0) newestRead = Math.max(0, oldest - 1);
  journal = [...body.reverse(), ...kept].slice(0, SHOWN_ENTRIES);
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
    row.addEventListener('click', () => { selected = entry.id; renderJournal(); openExchange(entry.id); });
    target.append(row);
  }
}

// The list holds no bodies: the whole exchange is read when its row is clicked.
async function openExchange(id) {
  const response = await fetch('/__admin/requests/' + id, { headers: auth }).catch(() => null);
  if (selected !== id) return;
  const entry = response?.ok ? await response.json().catch(() => null) : null;
  if (selected !== id) return;
  if (entry) return renderExchange(entry);
  document.getElementById('exchange').hidden = false;
  document.getElementById('exchange-request-line').textContent = '#' + id + ': no longer in the journal';
  for (const part of ['request-headers', 'request-body', 'status-line', 'response-headers', 'response-body']) {
    document.getElementById('exchange-' + part).textContent = '';
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

// ---- what the user does ----------------------------------------------------------------------

document.getElementById('server').addEventListener('change', () => {
  // A list id of the server shown before means nothing on this one.
  document.getElementById('list-filter').value = '';
  pollSoon(true);
});
document.getElementById('journal-form').addEventListener('submit', (event) => { event.preventDefault(); pollSoon(false); });
document.getElementById('journal-filter').addEventListener('input', () => pollSoon(false));
for (const id of ['search', 'status', 'list-filter']) document.getElementById(id).addEventListener('input', () => pollSoon(true));
document.getElementById('outage').addEventListener('click', async () => {
  const outages = faults.filter(isOutage);
  if (outages.length > 0) for (const fault of outages) await admin('DELETE', '/faults/' + fault.id);
  else await admin('POST', '/maintenance', {});
  pollSoon(true);
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
  pollSoon(true);
});
document.getElementById('clear-faults').addEventListener('click', async () => { await admin('DELETE', '/faults'); pollSoon(true); });
document.getElementById('reset').addEventListener('click', async () => { await admin('POST', '/reset'); pollSoon(true); });

pollSoon(true);
`;
