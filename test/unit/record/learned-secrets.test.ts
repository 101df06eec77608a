import { describe, expect, it, vi } from 'vitest';
import { LearnedSecrets, MAX_LEARNED_SECRETS } from '../../../src/record/learned-secrets.js';
import { Redactor } from '../../../src/redaction/redact.js';

// The keys a recorder learns from the traffic. A recording of many distinct keys (10,000 Bearer
// keys) took four times as long as one of one key, and each 2,000 requests longer than the last:
// every key was kept, and every new one made the redactor read them all again.

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const keyOf = (n: number) => `learned-key-${String(n).padStart(6, '0')}`;

describe('the secrets a recorder learns', () => {
  it('keeps the most recently seen ones up to its bound, and those given at the start always', () => {
    // The bound docs/fidelity.md states.
    expect(MAX_LEARNED_SECRETS).toBe(1000);
    const secrets = new LearnedSecrets(['verify-key-123'], 1000);
    for (let n = 0; n < 1500; n++) {
      secrets.learn(bearer(keyOf(n)));
      // The first key keeps being sent: it is never the least recently seen.
      secrets.learn(bearer(keyOf(0)));
    }
    const kept = new Set(secrets.secrets());
    expect(kept.size).toBe(1001);
    expect(kept.has('verify-key-123')).toBe(true);
    expect(kept.has(keyOf(0))).toBe(true);
    expect(kept.has(keyOf(1))).toBe(false);
    expect(kept.has(keyOf(1499))).toBe(true);
  });

  it('is read by the redactor a change at a time, never whole again, so each exchange costs the same', () => {
    const secrets = new LearnedSecrets([], 1000);
    const redactor = new Redactor(secrets, Number.MAX_SAFE_INTEGER);
    const wholeReads = vi.spyOn(secrets, 'secrets');
    for (let n = 0; n < 3000; n++) {
      secrets.learn(bearer(keyOf(n)));
      expect(redactor.body(`{"echo":"${keyOf(n)}"}`)).toBe('{"echo":"<redacted>"}');
    }
    expect(wholeReads.mock.calls.length).toBeLessThanOrEqual(1);
  });

  it('still redacts a forgotten key in the header that carries it, and learns it again there', () => {
    const secrets = new LearnedSecrets([], 2);
    const redactor = new Redactor(secrets, Number.MAX_SAFE_INTEGER);
    for (const n of [1, 2, 3]) secrets.learn(bearer(keyOf(n)));
    expect([...secrets.secrets()]).toEqual([keyOf(2), keyOf(3)]);
    // Authorization keeps its scheme alone, whatever the recorder knows.
    expect(redactor.requestHeaders(bearer(keyOf(1)))).toEqual({
      authorization: 'Bearer <redacted>',
    });
    secrets.learn(bearer(keyOf(1)));
    expect(redactor.body(`echo ${keyOf(1)}`)).toBe('echo <redacted>');
  });
});

const basic = (credentials: string | Buffer) => ({
  authorization: `Basic ${Buffer.from(credentials).toString('base64')}`,
});
const learnedFrom = (headers: Record<string, string | string[] | number | undefined>) => {
  const secrets = new LearnedSecrets();
  secrets.learn(headers);
  return [...secrets.secrets()];
};

describe('the keys a recorder learns from one credential header', () => {
  it('knows nothing before a request, and keeps the non-empty secrets given at the start', () => {
    expect([...new LearnedSecrets().secrets()]).toEqual([]);
    expect(new LearnedSecrets().keyChanges(0)).toEqual({ position: 0, changes: [] });
    expect([...new LearnedSecrets(['', 'given-key-1']).secrets()]).toEqual(['given-key-1']);
  });

  it('reads Authorization and Proxy-Authorization, each value of a repeated header', () => {
    expect(learnedFrom({ authorization: 'Bearer key-in-authorization' })).toEqual([
      'key-in-authorization',
    ]);
    expect(learnedFrom({ 'proxy-authorization': 'Bearer key-in-proxy' })).toEqual(['key-in-proxy']);
    expect(learnedFrom({ authorization: ['Bearer first-key', 'Bearer second-key'] })).toEqual([
      'first-key',
      'second-key',
    ]);
  });

  it("takes each cookie's value, as a session's credential, but no scheme from a cookie", () => {
    expect(learnedFrom({ cookie: 'session=SessionSecret777; theme = dark-blue ' })).toEqual([
      'SessionSecret777',
      'dark-blue',
    ]);
    // A cookie without `=` is all value, as a browser stores it.
    expect(learnedFrom({ cookie: 'Bearer not-a-credential', authorization: undefined })).toEqual([
      'Bearer not-a-credential',
    ]);
    expect(learnedFrom({ cookie: ['a=first-cookie', 'b=second-cookie'] })).toEqual([
      'first-cookie',
      'second-cookie',
    ]);
    expect(learnedFrom({ cookie: 'empty=; =; ;' })).toEqual([]);
  });

  it('takes a cookie value quoted and percent-encoded in the forms a server hands on', () => {
    // A framework strips the quotes (RFC 6265 cookie-value) and percent-decodes before its
    // application quotes the value back.
    // A quoted value without its quotes only: redacted with them, a JSON string would lose its own.
    expect(learnedFrom({ cookie: 'sid="QuotedCookie555666"; t=Enc%2BCookie%2F777888' })).toEqual([
      'QuotedCookie555666',
      'Enc%2BCookie%2F777888',
      'Enc+Cookie/777888',
    ]);
    expect(learnedFrom({ cookie: 'q="%22both%22"' })).toEqual(['%22both%22', '"both"']);
    // A lone `%` is no escape: the value as sent only.
    expect(learnedFrom({ cookie: 'p=100%-sure' })).toEqual(['100%-sure']);
    // Quotes only at one end are part of the value.
    expect(learnedFrom({ cookie: 'h="half-quoted' })).toEqual(['"half-quoted']);
    // Only quotes around the whole value are taken off, whatever is between them.
    expect(learnedFrom({ cookie: 's="a b c"' })).toEqual(['a b c']);
    expect(learnedFrom({ cookie: 's=x"in-quotes"' })).toEqual(['x"in-quotes"']);
    expect(learnedFrom({ cookie: 's="in-quotes"x' })).toEqual(['"in-quotes"x']);
    // A cookie that holds a location is no session: learned, it would take paths out of URLs.
    expect(
      learnedFrom({ cookie: 'returnTo=/marketing/v1/lists; next=https://app.example/a/b' }),
    ).toEqual([]);
    expect(learnedFrom({ cookie: 'r=%2Fmarketing%2Fv1%2Flists' })).toEqual([]);
    // A location with more around it is a value: only the whole of it is a location.
    expect(learnedFrom({ cookie: 'a=/one/two?k=LocTok01; b=x/one/two; c=http://h/p' })).toEqual([
      '/one/two?k=LocTok01',
      'x/one/two',
    ]);
    // Base64 may start with a slash: a value with an empty segment, `+` or `=` is no path.
    expect(learnedFrom({ cookie: 'a=//46AQID; b=/Ab9+z/Qx; c=/one/' })).toEqual([
      '//46AQID',
      '/Ab9+z/Qx',
      '/one/',
    ]);
    // A piece of a comma-joined value without `=` is part of the value, no cookie of its own.
    expect(learnedFrom({ cookie: 'a=XY12ab,plain' })).toEqual(['XY12ab,plain', 'XY12ab']);
  });

  it('takes the values of the cookies an answer sets, in each form, but none of their attributes', () => {
    const secrets = new LearnedSecrets();
    secrets.learn(
      { authorization: undefined },
      {
        'set-cookie': [
          'sid=LoginSessAAA111222333; Path=/; HttpOnly; Domain=secret-looking.example',
          'e="Enc%2Bvalue"; Max-Age=60',
          'bare-set-value',
        ],
      },
    );
    expect([...secrets.secrets()]).toEqual([
      'LoginSessAAA111222333',
      'Enc%2Bvalue',
      'Enc+value',
      'bare-set-value',
    ]);
    // One Set-Cookie as a string, as a client library may give it.
    const one = new LearnedSecrets();
    one.learn({}, { 'set-cookie': 'only=one-set-cookie; Secure' });
    expect([...one.secrets()]).toEqual(['one-set-cookie']);
    // An answer's Cookie or Authorization is nothing the client sent: not a credential to learn.
    const neither = new LearnedSecrets();
    neither.learn({}, { cookie: 'c=answer-cookie', authorization: 'Bearer answer-token' });
    expect([...neither.secrets()]).toEqual([]);
  });

  it('takes each cookie of a line joined by commas, sent or set, but no attribute of a set one', () => {
    const secrets = new LearnedSecrets();
    secrets.learn(
      { cookie: 'a=Unrelated1234, tok=CliTok5555aa' },
      {
        'set-cookie':
          'sid=SessA1b2c3d4, csrf=CsrfZ9y8x7w6; Expires=Wed, 21 Oct 2026 07:28:00 GMT; Path=/',
      },
    );
    expect([...secrets.secrets()]).toEqual([
      'Unrelated1234, tok=CliTok5555aa',
      'Unrelated1234',
      'CliTok5555aa',
      'SessA1b2c3d4, csrf=CsrfZ9y8x7w6',
      'SessA1b2c3d4',
      'CsrfZ9y8x7w6',
    ]);
  });

  it('takes Basic credentials from the first word when more follows, as a lenient server reads them', () => {
    const encoded = Buffer.from('12345:the-key-1').toString('base64');
    const other = Buffer.from('1:x').toString('base64');
    for (const header of [`Basic ${encoded} trailing`, `Basic ${encoded}, Basic ${other}`])
      expect(learnedFrom({ authorization: header })).toEqual(
        expect.arrayContaining([encoded, 'the-key-1']),
      );
    // A first word that holds no key (base64 split by white space) is no credential of its own.
    const whole = Buffer.from('12345:split-key').toString('base64');
    expect(learnedFrom({ authorization: `Basic ${whole.slice(0, 8)} ${whole.slice(8)}` })).toEqual([
      whole,
      'split-key',
    ]);
  });

  it('takes the token of another scheme without the whitespace around it', () => {
    expect(learnedFrom({ authorization: '  Bearer    spaced-key  ' })).toEqual(['spaced-key']);
    // The first word alone as well: a server reading `split(' ')[1]` takes it.
    expect(learnedFrom({ authorization: 'Bearer\tkey\tafter-tab' })).toEqual([
      'key\tafter-tab',
      'key',
    ]);
    expect(learnedFrom({ authorization: 'Bearer KEYVALUE1 extra' })).toEqual([
      'KEYVALUE1 extra',
      'KEYVALUE1',
    ]);
  });

  it('learns nothing from a scheme without credentials', () => {
    expect(learnedFrom({ authorization: 'Bearer' })).toEqual([]);
    expect(learnedFrom({ authorization: ' basic ' })).toEqual([]);
    expect(learnedFrom({ authorization: 'SCRAM-SHA-256' })).toEqual([]);
    expect(learnedFrom({ authorization: '   ' })).toEqual([]);
  });

  it('takes a value of one word as the credential itself, as an API that takes no scheme reads it', () => {
    expect(learnedFrom({ authorization: ' lin_api_BareKey0123 ' })).toEqual([
      'lin_api_BareKey0123',
    ]);
    expect(learnedFrom({ authorization: 'key=BareParam01' })).toEqual([
      'key=BareParam01',
      'BareParam01',
    ]);
    // Basic's base64 without its scheme: both halves, as with it.
    const encoded = Buffer.from('12345:bare-basic-1').toString('base64');
    expect(learnedFrom({ authorization: encoded })).toEqual([encoded, 'bare-basic-1']);
    // Random bytes that hold a colon are no Basic credentials: the word alone is learned.
    const binary = Buffer.from([0xff, 0xfe, 0x3a, 0x01, 0x02, 0x03]).toString('base64');
    expect(learnedFrom({ authorization: binary })).toEqual([binary]);
    // Nor is text with a control character before or after its colon.
    for (const text of ['\x01ab:cd', 'ab:cd\x01']) {
      const word = Buffer.from(text).toString('base64');
      expect(learnedFrom({ authorization: word })).toEqual([word]);
    }
  });

  it('takes each credential of a list in one header, but no parameter as one', () => {
    expect(learnedFrom({ authorization: 'Bearer FirstTok01, Bearer SecondTok02' })).toEqual(
      expect.arrayContaining(['FirstTok01', 'SecondTok02']),
    );
    const [one, two] = ['12345:basic-one', '12345:basic-two'].map((text) =>
      Buffer.from(text).toString('base64'),
    );
    expect(learnedFrom({ authorization: `Basic ${one}, Basic ${two}` })).toEqual(
      expect.arrayContaining(['basic-one', 'basic-two']),
    );
    expect(learnedFrom({ authorization: 'Bearer FirstTok01, BareSecond02' })).toEqual(
      expect.arrayContaining(['BareSecond02']),
    );
    // Parameters after a comma, with or without spaces around `=`, and a comma in a quoted value.
    expect(
      learnedFrom({ authorization: 'Digest username="u", realm = "the realm", response="r1"' }),
    ).not.toEqual(expect.arrayContaining(['"the realm"', '= "the realm"', 'realm']));
    expect(learnedFrom({ authorization: 'Token token="a, b c", x=1' })).not.toEqual(
      expect.arrayContaining(['b c"']),
    );
  });

  it('splits a list at each comma outside a quoted string, however it is spaced', () => {
    const learned = (value: string) => learnedFrom({ authorization: value });
    expect(learned('Bearer ListOne01,Bearer ListTwo02')).toContain('ListTwo02');
    expect(learned('Bearer ListOne01, Bearer  ListTwo02')).toContain('ListTwo02');
    // A backslash escapes only inside a quoted string.
    expect(learned('Bearer ListOne01\\, Bearer ListTwo02')).toContain('ListTwo02');
    expect(learned('Token token="abc", Bearer ListTwo02')).toContain('ListTwo02');
    const escaped = learned('Bearer ListOne01, realm="a\\", b", Bearer ListTwo02');
    expect(escaped).toContain('ListTwo02');
    expect(escaped).not.toContain('Bearer');
    // Each item alone: a scheme's name is never learned from the list around it.
    const three = learned('Bearer ListOne01, Bearer ListTwo02, Bearer ListThree03');
    expect(three).toEqual(expect.arrayContaining(['ListTwo02', 'ListThree03']));
    expect(three).not.toContain('Bearer');
  });

  it('takes a token without its quotes, and ended by a semicolon, as a lenient server reads it', () => {
    const learned = (value: string) => learnedFrom({ authorization: value });
    expect(learned('Bearer "QuotedTok111"')).toContain('QuotedTok111');
    expect(learned('"BareQuoted01"')).toContain('BareQuoted01');
    expect(learned('Token token=SemiTok2222; nonce="def"')).toContain('SemiTok2222');
    expect(learned('Bearer SemiTok3333;nonce=1')).toContain('SemiTok3333');
    expect(learned('Token token="a\\"b"')).toContain('a\\"b');
    expect(learned('Bearer:JoinedTok44')).toContain('JoinedTok44');
    expect(learned('bearer;JoinedTok55')).toContain('JoinedTok55');
    // Only a scheme's name at the start: `x.Bearer:KEY` is one word.
    expect(learned('x.Bearer:JoinedTok66')).toEqual(['x.Bearer:JoinedTok66']);
    // Only after a scheme's name: `user:pass` as it is.
    expect(learned('user:NotJoined66')).toEqual(['user:NotJoined66']);
  });

  it('learns no parameter the protocols define as public, nor a user name that is a server id', () => {
    const learned = learnedFrom({
      authorization:
        'Digest username="12345", realm="application", nonce="dcd98b71", uri="/marketing/v1/lists", algorithm=SHA-256, qop=auth, nc=00000001, cnonce="0a4f113b", response="6629fae4", userhash=false',
    });
    expect(learned).toEqual(expect.arrayContaining(['dcd98b71', '0a4f113b', '6629fae4']));
    for (const value of [
      '12345',
      'application',
      '/marketing/v1/lists',
      'SHA-256',
      'auth',
      '00000001',
      'false',
    ])
      expect(learned).not.toContain(value);
    expect(learnedFrom({ authorization: 'Digest username="someone", response="r"' })).toContain(
      'someone',
    );
    expect(
      learnedFrom({
        authorization:
          'Bearer x, error="invalid_token", scope="lists", error_description="d", error_uri="/e/f"',
      }),
    ).not.toEqual(expect.arrayContaining(['invalid_token', 'lists', 'd', '/e/f']));
  });

  it('takes the first word of Basic as credentials when its key starts with white space', () => {
    // 15 bytes: base64 without padding, so the words after it change what the whole decodes to.
    const first = Buffer.from('12345: spaced-k').toString('base64');
    expect(learnedFrom({ authorization: `Basic ${first} extra` })).toEqual(
      expect.arrayContaining([first, ' spaced-k']),
    );
  });

  it('takes each parameter value of a token, quoted or not, with spaces around the equals sign', () => {
    expect(
      learnedFrom({ authorization: 'Token token="quoted, with space", b=second-value' }),
    ).toEqual([
      'token="quoted, with space", b=second-value',
      'token="quoted',
      'quoted, with space',
      'second-value',
    ]);
    expect(learnedFrom({ authorization: 'Token key = spaced-value' })).toEqual([
      'key = spaced-value',
      'key',
      'spaced-value',
    ]);
    // Only the quotes around a value are taken off.
    expect(learnedFrom({ authorization: 'Token token=in"side' })).toEqual([
      'token=in"side',
      'in"side',
    ]);
  });

  it('takes both halves of Basic credentials, the user name only when it is not a server id', () => {
    const encoded = (text: string) => Buffer.from(text).toString('base64');
    expect(learnedFrom(basic('12345:secret-key'))).toEqual([
      encoded('12345:secret-key'),
      'secret-key',
    ]);
    expect(learnedFrom(basic('secret-key:12345'))).toEqual([
      encoded('secret-key:12345'),
      'secret-key',
      '12345',
    ]);
    expect(learnedFrom(basic(':only-a-key'))).toEqual([encoded(':only-a-key'), 'only-a-key']);
    // No colon: the whole of it is the key.
    expect(learnedFrom(basic('no-colon-key'))).toEqual([encoded('no-colon-key'), 'no-colon-key']);
  });

  it('reads Basic credentials split by whitespace as one', () => {
    const whole = Buffer.from('12345:split-key').toString('base64');
    const split = `${whole.slice(0, 8)} \t ${whole.slice(8)}`;
    expect(learnedFrom({ authorization: `Basic ${split}` })).toEqual([whole, 'split-key']);
  });

  it('decodes a Basic key as UTF-8, or as Latin-1 bytes when it is not UTF-8', () => {
    expect(learnedFrom(basic('12345:clé-utf8')).slice(1)).toEqual(['clé-utf8']);
    expect(learnedFrom(basic(Buffer.from('12345:cl\xe9-latin1', 'latin1'))).slice(1)).toEqual([
      'clé-latin1',
    ]);
  });

  it('never learns a secret it was given, nor a second time one it knows', () => {
    const secrets = new LearnedSecrets(['given-key-1']);
    secrets.learn(bearer('given-key-1'));
    expect([...secrets.secrets()]).toEqual(['given-key-1']);
    expect(secrets.revision()).toBe(0);
    secrets.learn(bearer('learned-1'));
    secrets.learn(bearer('learned-2'));
    secrets.learn(bearer('learned-1'));
    // Seen again: the most recent, and no change for the redactor.
    expect([...secrets.secrets()]).toEqual(['given-key-1', 'learned-2', 'learned-1']);
    expect(secrets.keyChanges(0)).toEqual({
      position: 2,
      changes: [
        { key: 'learned-1', added: true },
        { key: 'learned-2', added: true },
      ],
    });
  });

  it('tells the redactor a forgotten key went', () => {
    const secrets = new LearnedSecrets([], 1);
    secrets.learn(bearer('first-key'));
    secrets.learn(bearer('second-key'));
    expect(secrets.keyChanges(1)).toEqual({
      position: 3,
      changes: [
        { key: 'second-key', added: true },
        { key: 'first-key', added: false },
      ],
    });
  });
});

describe('the changes a recorder keeps for the redactor', () => {
  it('gives those since a position it keeps, and none for an unknown position', () => {
    const secrets = new LearnedSecrets();
    secrets.learn(bearer('first-key'));
    secrets.learn(bearer('second-key'));
    expect(secrets.keyChanges(1)).toEqual({
      position: 2,
      changes: [{ key: 'second-key', added: true }],
    });
    expect(secrets.keyChanges(2)).toEqual({ position: 2, changes: [] });
    expect(secrets.keyChanges(3)).toEqual({ position: 2, changes: undefined });
    expect(secrets.keyChanges(undefined)).toEqual({ position: 2, changes: undefined });
  });

  it('keeps twice the bound of changes, then drops the older half and more', () => {
    const secrets = new LearnedSecrets();
    for (let n = 0; n < 2 * MAX_LEARNED_SECRETS; n++) secrets.learn(bearer(keyOf(n)));
    expect([...(secrets.keyChanges(0).changes ?? [])]).toHaveLength(2 * MAX_LEARNED_SECRETS);
    secrets.learn(bearer(keyOf(2 * MAX_LEARNED_SECRETS)));
    const position = 2 * MAX_LEARNED_SECRETS + 1;
    const first = position - MAX_LEARNED_SECRETS;
    expect(secrets.keyChanges(0)).toEqual({ position, changes: undefined });
    expect(secrets.keyChanges(first - 1).changes).toBeUndefined();
    const kept = [...(secrets.keyChanges(first).changes ?? [])];
    expect(kept).toHaveLength(MAX_LEARNED_SECRETS);
    expect(kept[0]).toEqual({ key: keyOf(first), added: true });
  });
});
