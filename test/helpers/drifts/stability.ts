import type { Drift, DriftState } from '../drift-proxy.js';
import { drift, isJson, mapItems, mapJson, mapXml, on, requestJson } from './kit.js';

const CONTENT = /^\/content$/;
const LISTS = /^\/lists$/;
const FIELDS = /^\/customfields$/;
const CREATE_FIELD = /^\/customfields\/[^/]+$/;
const BY_EMAIL = /^\/lists\/[^/]+\/contacts$/;

/** Adds `seconds` to an ISO timestamp. */
const later = (iso: string, seconds: number) =>
  new Date(Date.parse(iso) + seconds * 1000).toISOString();

/** Counts an event in the drift's state and returns the count before it. */
function bump(state: DriftState, name: string): number {
  const count = (state.get(name) as number | undefined) ?? 0;
  state.set(name, count + 1);
  return count;
}

/**
 * Values the description makes stable (ids used in later calls, when content was added) that a
 * drifted service changes between reads, and the id of a second new contact (2 Contact: each
 * contact has its own id).
 */
export const STABILITY_DRIFTS: readonly Drift[] = [
  drift({
    id: 'stable.content-created-moves',
    description: 'Content created is a second later on every read (JSON and XML).',
    section: '2 Content (created: when the content was added)',
    requirement: 'R34',
    caughtBy: ['stable.ids-and-dates', 'writes.stable-after-write'],
    answer: (answer, request, state) => {
      if (!on(request, 'GET', CONTENT) || answer.status !== 200) return answer;
      const reads = bump(state, 'reads');
      return mapXml(
        mapItems(answer, (item) => ({ ...item, created: later(String(item.created), reads) })),
        (text) =>
          text.replace(
            /<Created>([^<]*)<\/Created>/g,
            (_all, iso: string) => `<Created>${later(iso, reads)}</Created>`,
          ),
      );
    },
  }),
  drift({
    id: 'stable.lists-grow-on-reads',
    description: 'Every JSON read of the lists shows one list more than the read before it.',
    section: '2 List (id: used in later calls)',
    requirement: 'R34',
    caughtBy: ['stable.ids-and-dates', 'writes.stable-after-write'],
    answer: (answer, request, state) => {
      if (!on(request, 'GET', LISTS) || answer.status !== 200 || !isJson(answer)) return answer;
      const reads = bump(state, 'reads');
      return mapJson(answer, (lists) => [
        ...(lists as Record<string, unknown>[]),
        ...Array.from({ length: reads }, (_, index) => ({
          id: 900 + index,
          serverId: (lists as { serverId?: unknown }[])[0]?.serverId,
          name: `Phantom ${index}`,
        })),
      ]);
    },
  }),
  drift({
    id: 'stable.field-ids-renumbered-by-writes',
    description:
      'Each custom field create or delete renumbers the fields that were there before it.',
    section: '2 Custom field (customFieldNameId: unique id); 4 DELETE /customfields/{id}',
    requirement: 'R37',
    caughtBy: ['writes.stable-after-write'],
    answer: (answer, request, state) => {
      const write = on(request, 'POST', CREATE_FIELD) || on(request, 'DELETE', CREATE_FIELD);
      if (write && answer.status < 300) bump(state, 'writes');
      if (!on(request, 'GET', FIELDS) || answer.status !== 200) return answer;
      // The fields listed before the first write are "the old ones": they move by 1000 a write.
      const old = (state.get('old') as Set<number> | undefined) ?? new Set<number>();
      if (!state.has('old') && isJson(answer)) {
        for (const field of JSON.parse(answer.body) as { customFieldNameId: number }[])
          old.add(field.customFieldNameId);
        state.set('old', old);
      }
      const shift = 1000 * ((state.get('writes') as number | undefined) ?? 0);
      const moved = (id: number) => (old.has(id) ? id + shift : id);
      return mapXml(
        mapItems(answer, (item) => ({
          ...item,
          customFieldNameId: moved(Number(item.customFieldNameId)),
        })),
        (text) =>
          text.replace(
            /<CustomFieldNameId>(\d+)<\/CustomFieldNameId>/g,
            (_all, id: string) => `<CustomFieldNameId>${moved(Number(id))}</CustomFieldNameId>`,
          ),
      );
    },
  }),
  drift({
    id: 'writes.second-contact-same-id',
    description: "Every new contact after the first is given the first new contact's id.",
    section: '2 Contact (integer id); 4 PUT /lists/{listId}/contacts (rule 1)',
    requirement: 'R35',
    caughtBy: ['writes.second-contact'],
    // The checks that put the id in a path cannot confirm it is the run's own, and skip.
    skips: [
      'writes.add-by-id',
      'writes.remove-keeps-contact',
      'writes.unsubscribe-by-id',
      'writes.contact-cap',
    ],
    answer: (answer, request, state) => {
      const address = String(requestJson(request)?.emailAddress ?? '').toLowerCase();
      if (!on(request, 'PUT', BY_EMAIL) || answer.status !== 200 || address === '') return answer;
      return mapJson(answer, (value) => {
        const result = value as { contactId?: unknown };
        const first = state.get('first') as [string, unknown] | undefined;
        if (!first) state.set('first', [address, result.contactId]);
        return first && first[0] !== address ? { ...result, contactId: first[1] } : result;
      });
    },
  }),
];
