import { createHash } from 'node:crypto';
import { SCRIPT } from './inspector-script.js';

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
  #contacts-note { color: #4b5563; margin: .5rem 0 0; }
  #exchange { display: grid; grid-template-columns: 1fr 1fr; gap: 1rem; }
  #exchange[hidden] { display: none; }
  #exchange pre { background: #f5f6f8; padding: .5rem; margin: .25rem 0; white-space: pre-wrap; word-break: break-all; max-height: 18rem; overflow: auto; }
  #exchange h3 { font-size: .85rem; margin: .25rem 0; }
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
    <p id="contacts-note"></p>
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
