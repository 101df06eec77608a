import { expect } from 'vitest';

/** What `action` throws, checked to be a `type`: the test then reads its fields. */
export function thrownBy<E>(action: () => unknown, type: abstract new (...args: never[]) => E): E {
  let caught: unknown;
  try {
    action();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(type);
  return caught as E;
}
