import { describe, expect, it, vi } from 'vitest';
import { REDACTED, Redactor } from '../../src/control/redact.js';

// Tests that the mutation run (docs/benchmarks.md, fourth round: recording files) asked for: the
// redactor's work counted through its SecretSource, and its answers at the edges the other
// redaction tests leave out.

const KEY = 'Secr3t-Key_0042';

/** A source whose reads the test counts, and whose keys it changes (bumping the revision). */
function countedSource(initial: string[]) {
  const state = { secrets: initial, revision: 1 };
  const source = {
    revision: () => state.revision,
    secrets: vi.fn(() => state.secrets),
  };
  const change = (secrets: string[]) => {
    state.secrets = secrets;
    state.revision += 1;
  };
  return { source, change };
}

describe('the compiled secrets', () => {
  it('are read from the source once per revision, whatever is redacted meanwhile', () => {
    const { source, change } = countedSource([KEY]);
    const redactor = new Redactor(source, 1024);
    for (let round = 0; round < 3; round += 1) {
      expect(redactor.url(`/x?k=${KEY}`)).toBe(`/x?k=${REDACTED}`);
      expect(redactor.requestHeaders({ 'x-key': KEY })).toEqual({ 'x-key': REDACTED });
      expect(redactor.query({ k: KEY })).toEqual({ k: REDACTED });
      expect(redactor.body(`{"k":"${KEY}"}`)).toBe(`{"k":"${REDACTED}"}`);
    }
    expect(source.secrets).toHaveBeenCalledOnce();
    change(['Other-Key_0099']);
    expect(redactor.url(`/x?k=${KEY}&o=Other-Key_0099`)).toBe(`/x?k=${KEY}&o=${REDACTED}`);
    expect(redactor.url('/y')).toBe('/y');
    expect(source.secrets).toHaveBeenCalledTimes(2);
  });
});
