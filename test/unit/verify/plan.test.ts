import { describe, expect, it } from 'vitest';
import { verifyPlan } from '../../../src/verify/verify.js';

// What `verify --list` and `--dry-run` show of each check is read by the people who judge a run:
// its id, section, requirement and the requests it sends. Kept whole in a file beside this one, so
// that a change to any of them is made on purpose (`npx vitest run -u` rewrites it) and reviewed.
describe('the plan of every check', () => {
  it('is the reviewed text: id, section, requirement, writes and requests', async () => {
    const text = verifyPlan(true)
      .map((check) =>
        [
          `${check.id}${check.writes ? ' (writes)' : ''}`,
          `  section: ${check.section}`,
          `  requires: ${check.requirement}`,
          ...check.requests.map((request) => `  sends: ${request}`),
        ].join('\n'),
      )
      .join('\n\n');
    await expect(`${text}\n`).toMatchFileSnapshot('./__snapshots__/verify-plan.txt');
  });

  it('without writes is the same checks, the writing ones left out', () => {
    const all = verifyPlan(true);
    const readOnly = verifyPlan(false);
    expect(readOnly).toEqual(all.filter((check) => !check.writes));
    expect(readOnly.length).toBeGreaterThan(10);
    expect(all.length - readOnly.length).toBeGreaterThan(5);
  });
});
