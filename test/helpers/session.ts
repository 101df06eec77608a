import { type Call, send, type Target } from '../../src/verify/http-client.js';

const XML = 'text/xml' as const;

/** A membership or field id from a JSON answer, or a stand-in when a drifted answer lacks it. */
function idFrom(body: string, field: string, fallback: number): number {
  try {
    const value = (JSON.parse(body) as Record<string, unknown>)[field];
    return typeof value === 'number' ? value : fallback;
  } catch {
    return fallback;
  }
}

/**
 * A scripted client session against the small seed's server 1234 (test/helpers/fake.ts): every
 * endpoint, JSON and XML, successes and errors, with ids taken from earlier answers as a real
 * client does. Sequential, so exchange n is HAR entry n. Returns how many requests it sent.
 */
export async function scriptedSession(target: Target): Promise<number> {
  let sent = 0;
  const call = async (request: Call) => {
    sent += 1;
    return send(target, request);
  };
  await call({ method: 'GET', path: '/lists' });
  await call({ method: 'GET', path: '/lists', accept: XML });
  await call({ method: 'GET', path: '/customfields' });
  await call({ method: 'GET', path: '/customfields', accept: XML });
  await call({ method: 'GET', path: '/content' });
  await call({ method: 'GET', path: '/content', accept: XML });
  const added = await call({
    method: 'PUT',
    path: '/lists/1/contacts',
    body: { emailAddress: 'new1@example.com', customFields: [{ Name: 'City', Value: 'Porto' }] },
  });
  const newContact = idFrom(added.body, 'contactId', 4);
  await call({
    method: 'PUT',
    path: '/lists/2/contacts',
    accept: XML,
    body: { emailAddress: 'new2@example.com' },
  });
  await call({
    method: 'PUT',
    path: '/lists/1/contacts',
    body: { emailAddress: 'not-an-address' },
  });
  await call({ method: 'PUT', path: '/lists/1/contacts', body: {} });
  await call({
    method: 'PUT',
    path: '/lists/99/contacts',
    accept: XML,
    body: { emailAddress: 'x@example.com' },
  });
  await call({
    method: 'PUT',
    path: '/lists/99/contacts',
    body: { emailAddress: 'ann@example.com' },
  });
  await call({
    method: 'PUT',
    path: '/lists/1/contacts',
    body: { emailAddress: 'y@example.com', customFields: [{ Name: 'Nope', Value: '1' }] },
  });
  await call({ method: 'PUT', path: '/lists/2/contacts/1' });
  await call({ method: 'PUT', path: '/lists/2/contacts/1', accept: XML });
  await call({ method: 'PUT', path: '/lists/2/contacts/99', accept: XML });
  await call({ method: 'PUT', path: `/lists/2/contacts/${newContact}` });
  await call({ method: 'DELETE', path: '/lists/2/contacts/1' });
  await call({ method: 'DELETE', path: '/lists/99/contacts/1' });
  await call({ method: 'POST', path: '/contacts/unsubscribe/2' });
  await call({ method: 'POST', path: '/contacts/unsubscribe/99', accept: XML });
  await call({
    method: 'POST',
    path: '/contacts/unsubscribe',
    body: { emailAddress: 'new1@example.com' },
  });
  await call({
    method: 'POST',
    path: '/contacts/unsubscribe',
    body: { emailAddress: 'nobody@example.com' },
  });
  await call({ method: 'POST', path: '/../beta/contacts/unsubscribe/1' });
  const created = await call({ method: 'POST', path: '/customfields/Nickname' });
  const field = idFrom(created.body, 'customFieldNameId', 4);
  await call({ method: 'POST', path: '/customfields/Region', accept: XML });
  await call({ method: 'POST', path: '/customfields/Nickname' });
  await call({ method: 'POST', path: '/customfields/emailaddress', accept: XML });
  await call({ method: 'POST', path: '/customfields/EmailAddress' });
  await call({ method: 'POST', path: `/customfields/${'x'.repeat(51)}`, accept: XML });
  await call({ method: 'POST', path: `/customfields/${'y'.repeat(50)}` });
  await call({ method: 'POST', path: `/customfields/${encodeURIComponent('<b>')}` });
  await call({ method: 'GET', path: '/customfields' });
  await call({ method: 'DELETE', path: `/customfields/${field}` });
  await call({ method: 'DELETE', path: `/customfields/${field}`, accept: XML });
  await call({ method: 'GET', path: '/customfields', accept: XML });
  await call({ method: 'GET', path: '/lists', key: 'not-the-key' });
  await call({ method: 'GET', path: '/nope' });
  return sent;
}
