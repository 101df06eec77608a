import { expect } from 'vitest';
import { type CheckTools, Mismatch } from '../../src/verify/check-kit.js';
import type { Answer, Call } from '../../src/verify/http-client.js';

/** How a scripted service answers one call: by a fixed answer, or by reading the call. */
export type Script = (call: Call, index: number) => Answer | Promise<Answer>;

/** What a check did with scripted tools: the calls it sent, its notes, what it made. */
export interface ScriptedTools {
  readonly tools: CheckTools;
  readonly calls: Call[];
  readonly notes: string[];
  readonly made: { what: string; undo?: () => Promise<boolean> }[];
}

/** A JSON answer, as the service sends one. */
export const json = (status: number, body: unknown): Answer => ({
  status,
  contentType: 'application/json; charset=utf-8',
  body: JSON.stringify(body),
});

/** An XML answer, as the service sends one. */
export const xml = (status: number, body: string): Answer => ({
  status,
  contentType: 'text/xml; charset=utf-8',
  body,
});

/**
 * CheckTools whose service is a script, so that a check's judgement of one exact answer can be
 * tested without a server: the drift suite proves the checks against a live fake, these tests
 * prove each condition and message on its own.
 */
export function scriptedTools(
  script: Script,
  options: {
    serverId?: number;
    key?: string;
    maxNewContacts?: number;
    /** The fields on the account before the run (default none); null: they could not be read. */
    fieldsBefore?: CheckTools['fieldsBefore'] | null;
  } = {},
): ScriptedTools {
  const calls: Call[] = [];
  const notes: string[] = [];
  const made: { what: string; undo?: () => Promise<boolean> }[] = [];
  const tools: CheckTools = {
    call: async (call) => {
      calls.push(call);
      return script(call, calls.length - 1);
    },
    serverId: options.serverId ?? 1234,
    key: options.key ?? 'scripted-key',
    run: {
      address: 'fms-verify-0123456789ab@example.com',
      second: 'fms-verify-0123456789ab-2@example.com',
      fieldName: 'FmsVerify0123456789ab',
      tag: '0123456789ab',
    },
    fieldsBefore:
      options.fieldsBefore === undefined
        ? []
        : options.fieldsBefore === null
          ? undefined
          : options.fieldsBefore,
    fieldNamesAsked: new Set(),
    fieldNamesDeleted: new Set(),
    maxNewContacts: options.maxNewContacts ?? 0,
    note: (text) => {
      notes.push(text);
    },
    made: (what, undo) => {
      made.push(undo ? { what, undo } : { what });
    },
  };
  return { tools, calls, notes, made };
}

/** The Mismatch a check's run rejected with (checked to be one): the test then reads its fields. */
export async function mismatchOf(run: Promise<string>): Promise<Mismatch> {
  const error = await run.then(
    () => undefined,
    (rejected: unknown) => rejected,
  );
  expect(error).toBeInstanceOf(Mismatch);
  return error as Mismatch;
}
