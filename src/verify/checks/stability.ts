import {
  type Check,
  type CheckTools,
  expectStatus,
  Mismatch,
  Skip,
  tryJson,
} from '../check-kit.js';
import type { Answer } from '../http-client.js';
import { createField, deleteField, integerId } from '../needs.js';

/** What one read of a collection shows that must not change: each id and a value tied to it. */
interface Snapshot {
  readonly path: string;
  readonly answer: Answer;
  /** Item id (as written) to the value that belongs to it, in words. */
  readonly values: ReadonlyMap<string, string>;
}

/** The instant a timestamp names (another spelling of the same instant is the same); else the text. */
const instant = (value: unknown) =>
  typeof value === 'string' && !Number.isNaN(Date.parse(value))
    ? new Date(value).toISOString()
    : JSON.stringify(value);

/**
 * The collections and what the description makes stable in each: the ids later calls use (2 List,
 * 2 Custom field), the owning server, the field an id names, and when content was added.
 */
const STABLE = [
  {
    path: '/lists',
    label: 'list',
    id: 'id',
    keeps: (item: Record<string, unknown>) => `serverId ${JSON.stringify(item.serverId)}`,
  },
  {
    path: '/customfields',
    label: 'field',
    id: 'customFieldNameId',
    keeps: (item: Record<string, unknown>) => `name ${JSON.stringify(item.name)}`,
  },
  {
    path: '/content',
    label: 'content',
    id: 'id',
    keeps: (item: Record<string, unknown>) => `created ${instant(item.created)}`,
  },
] as const;

/** Reads every collection once, in JSON; skips when one cannot be read (its own check judges it). */
async function snapshots(tools: CheckTools): Promise<Snapshot[]> {
  const read: Snapshot[] = [];
  for (const { path, id, keeps } of STABLE) {
    const answer = await tools.call({ method: 'GET', path, accept: 'application/json' });
    const items = tryJson(answer);
    if (answer.status !== 200 || !Array.isArray(items))
      throw new Skip(
        `cannot read GET ${path}: it answered ${answer.status} (the ${path.slice(1)}.json check judges that answer)`,
      );
    const values = new Map<string, string>();
    for (const item of items as Record<string, unknown>[])
      values.set(String(item?.[id]), keeps(item ?? {}));
    read.push({ path, answer, values });
  }
  if (read.every((snapshot) => snapshot.values.size === 0))
    throw new Skip(
      'the account has nothing to compare: GET /lists, /customfields and /content answered no item',
    );
  return read;
}

/**
 * Throws unless every item `before` shows is in `after` with the same id and value, and `after`
 * shows no other item but the ids in `added`.
 */
function expectSame(before: Snapshot[], after: Snapshot[], when: string, ...added: string[]) {
  for (const [index, { label }] of STABLE.entries()) {
    const was = before[index]!;
    const now = after[index]!;
    for (const [id, value] of was.values) {
      const seen = now.values.get(id);
      if (seen !== value) {
        throw new Mismatch(
          `${when}: ${label} ${id} still there with ${value} (ids and what they name do not change)`,
          seen === undefined
            ? `${when}: no ${label} with id ${id}`
            : `${when}: ${label} ${id} has ${seen}`,
          now.answer,
        );
      }
    }
    const appeared = [...now.values.keys()].filter(
      (id) => !was.values.has(id) && !added.includes(id),
    );
    if (appeared.length > 0) {
      throw new Mismatch(
        `${when}: the same ${label} ids as before (${[...was.values.keys()].join(', ') || 'none'})`,
        `${when}: ${label} id(s) ${appeared.join(', ')} appeared`,
        now.answer,
      );
    }
  }
}

/** Values the description makes stable, read twice and around a write. */
export const STABILITY_CHECKS: readonly Check[] = [
  {
    id: 'stable.ids-and-dates',
    section:
      '2 List (id used in later calls); 2 Custom field (unique id); 2 Content (id; created: when the content was added)',
    requirement:
      'Read twice, GET /lists, /customfields and /content answer the same ids, each with the same serverId, field name and content created instant.',
    writes: false,
    requests: ['GET /lists, /customfields, /content (Accept: application/json)', 'the same again'],
    expect: async (tools) => {
      const first = await snapshots(tools);
      expectSame(first, await snapshots(tools), 'the second read');
      return `${first.map(({ values, path }) => `${values.size} ${path.slice(1)}`).join(', ')}: the same on a second read`;
    },
  },
];

/** The write that goes with them: fields created and deleted leave everything else as it was. */
export const STABILITY_WRITE_CHECKS: readonly Check[] = [
  {
    id: 'writes.stable-after-write',
    section:
      '2 List; 2 Custom field (unique id); 2 Content (created); 4 POST and DELETE /customfields',
    requirement:
      'Creating a custom field, then deleting it, changes no other id and nothing tied to one (lists, fields, content created); the new field is listed under the id its create answered.',
    writes: true,
    requests: [
      'GET /lists, /customfields, /content',
      'POST /customfields/FmsVerify<random>S',
      'GET /lists, /customfields, /content',
      'DELETE /customfields/{its id}',
      'GET /lists, /customfields, /content',
    ],
    expect: async (tools) => {
      const before = await snapshots(tools);
      const name = `${tools.run.fieldName}S`;
      const created = await createField(tools, name);
      const id = integerId(
        (tryJson(created) as { customFieldNameId?: unknown } | undefined)?.customFieldNameId,
      );
      if (created.status >= 300 || id === undefined)
        throw new Skip(
          `could not create the field ${name}: ${created.status} (writes.field-create judges that answer)`,
        );
      const after = await snapshots(tools);
      expectSame(before, after, 'after a field was created', String(id));
      const listed = after[1]!.values.get(String(id));
      if (listed !== `name ${JSON.stringify(name)}`) {
        throw new Mismatch(
          `the new field listed under its id ${id}`,
          listed === undefined ? `no field with id ${id}` : `field ${id} has ${listed}`,
          after[1]!.answer,
        );
      }
      const deleted = await deleteField(tools, name, id);
      expectStatus(deleted, '2xx', 'delete: ');
      expectSame(before, await snapshots(tools), 'after it was deleted');
      return 'ids and what they name unchanged by a field created and deleted';
    },
  },
];
