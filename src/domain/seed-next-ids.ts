import type { NextIds } from './model.js';
import { MAX_ID } from './rules.js';
import { describe, expectObject, fail, isPositiveId, joinPath } from './seed-check.js';
import type { NextIdsSeed } from './seed-types.js';
import type { Tenant } from './tenant.js';

/** The seed's names for the id counters, and the tenant's. */
const COUNTERS = {
  list: 'list',
  contact: 'contact',
  customField: 'field',
  content: 'content',
} as const satisfies Record<keyof NextIdsSeed, keyof NextIds>;
const NAMES = Object.keys(COUNTERS) as (keyof NextIdsSeed)[];

/** What the seed's items (and the server it extends) already use, per counter. */
export interface UsedIds {
  readonly lists: readonly { readonly id: number }[];
  readonly contacts: readonly { readonly id: number }[];
  readonly fields: readonly { readonly id: number }[];
  readonly content: readonly { readonly id: number }[];
}

/**
 * A seed's `nextIds`: the id the next created item of each kind gets, so that
 * `seed(exportState())` also reproduces the ids created later, deleted ids never coming back.
 * Each counter must be past every id of its kind in the server (the seed's and those it already
 * holds) and not below the counter of a server it extends: a lower one would reuse an id. At
 * most one past {@link MAX_ID}: a counter there means every id of its kind is used.
 */
export function planNextIds(
  value: unknown,
  path: string,
  used: UsedIds,
  target: Tenant | undefined,
): Partial<NextIds> {
  if (value === undefined) return {};
  const given = expectObject(value, path, NAMES);
  const current = target?.peekNextIds();
  const largest: Record<keyof NextIds, number> = {
    list: largestId(used.lists),
    contact: largestId(used.contacts),
    field: largestId(used.fields),
    content: largestId(used.content),
  };
  const planned: Partial<NextIds> = {};
  for (const name of NAMES) {
    const next = given[name];
    if (next === undefined) continue;
    const where = joinPath(path, name);
    // One past the largest id: a server whose every id is used exports that, and seeds back.
    if (Number.isInteger(next) && (next as number) > MAX_ID + 1) {
      fail(
        where,
        `must be at most ${MAX_ID + 1} (one past the largest id, ${MAX_ID}), got ${describe(next)}`,
      );
    }
    if (!isPositiveId(next)) fail(where, `must be a positive integer, got ${describe(next)}`);
    const counter = COUNTERS[name];
    const past = Math.max(largest[counter], (current?.[counter] ?? 1) - 1);
    if (next <= past) {
      fail(
        where,
        `must be more than ${past}, the largest ${name} id this server uses or has used (ids are never reused), got ${next}`,
      );
    }
    planned[counter] = next;
  }
  return planned;
}

function largestId(items: readonly { readonly id: number }[]): number {
  let largest = 0;
  for (const { id } of items) if (id > largest) largest = id;
  return largest;
}

/** A tenant's counters as a seed writes them. */
export function exportNextIds(next: Readonly<NextIds>): Required<NextIdsSeed> {
  return {
    list: next.list,
    contact: next.contact,
    customField: next.field,
    content: next.content,
  };
}
