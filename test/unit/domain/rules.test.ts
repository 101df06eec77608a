import { describe, expect, it } from 'vitest';
import { constantTimeEqual } from '../../../src/domain/constant-time.js';
import { fieldNameProblem, isValidEmail } from '../../../src/domain/rules.js';

describe('isValidEmail', () => {
  it.each([
    ['ann@example.com'],
    ['Ann.Lee+tag@mail.example.co.uk'],
    ["o'brien@example.ie"],
    ['ünïcode@exämple.com'],
    [`${'a'.repeat(64)}@${'b'.repeat(180)}.com`],
  ])('accepts %s', (email) => {
    expect(isValidEmail(email)).toBe(true);
  });

  it.each([
    ['', 'empty'],
    ['ann', 'no @'],
    ['ann@', 'no domain'],
    ['@example.com', 'no local part'],
    ['ann@@example.com', 'two @'],
    ['ann@example', 'undotted domain'],
    ['ann@example.', 'empty last label'],
    ['ann@.example.com', 'empty first label'],
    ['ann@exa..mple.com', 'empty middle label'],
    ['ann lee@example.com', 'a space'],
    ['ann@exam\tple.com', 'a tab'],
    ['ann\u0001@example.com', 'a control character'],
    [`${'a'.repeat(64)}@${'b'.repeat(186)}.com`, '255 characters'],
  ])('rejects %j (%s)', (email) => {
    expect(isValidEmail(email)).toBe(false);
  });

  it.each([[undefined], [null], [42], [{}], [['ann@example.com']]])(
    'rejects non-string %j',
    (value) => {
      expect(isValidEmail(value)).toBe(false);
    },
  );
});

describe('fieldNameProblem: length, then characters, then reserved', () => {
  it.each([
    ['', 'length'],
    ['x'.repeat(51), 'length'],
    [`<${'x'.repeat(50)}`, 'length'],
    ['<b>', 'characters'],
    ['a>b', 'characters'],
    ['Id', 'reserved'],
    ['id', 'reserved'],
    ['EMAILADDRESS', 'reserved'],
    ['contactId', 'reserved'],
    ['City', undefined],
    ['x'.repeat(50), undefined],
    ['Identity', undefined],
  ])('%j -> %s', (name, problem) => {
    expect(fieldNameProblem(name)).toBe(problem);
  });

  it.each([[undefined], [null], [5], [{}]])('a non-string %j is a length problem', (name) => {
    expect(fieldNameProblem(name)).toBe('length');
  });
});

describe('constantTimeEqual', () => {
  it.each([
    ['key', 'key', true],
    ['', '', true],
    ['key', 'kez', false],
    ['key', 'ke', false],
    ['ke', 'key', false],
    ['', 'key', false],
    ['key', '', false],
    ['KEY', 'key', false],
    ['ключ', 'ключ', true],
    ['ключ', 'ключь', false],
    ['a\u0000', 'a', false],
  ])('%j vs %j -> %s', (given, expected, equal) => {
    expect(constantTimeEqual(given, expected)).toBe(equal);
  });
});
