import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MessageKeys,
  charLength,
  checkChangePassword,
  checkNewPassword,
  normaliseLoginName,
  passwordClasses,
  passwordStrength,
} from '../src/index.js';

describe('charLength', () => {
  it('counts characters as a person does', () => {
    expect(charLength('')).toBe(0);
    expect(charLength('abc')).toBe(3);
    expect(charLength('调度中心一号')).toBe(6);
    // Characters outside the BMP are one character, not two UTF-16 units.
    expect(charLength('𠮷野家')).toBe(3);
    expect('𠮷野家'.length).toBe(4);
  });

  it('agrees with the code point count for any string', () => {
    fc.assert(fc.property(fc.string({ unit: 'grapheme' }), (s) => charLength(s) === Array.from(s).length));
  });
});

describe('passwordClasses', () => {
  it.each([
    ['', 0],
    ['123456', 1],
    ['abcdef', 1],
    ['ABCDEF', 1],
    ['!@#$%^', 1],
    ['abc123', 2],
    ['Abc123', 3],
    ['Abc12!', 4],
    ['密码', 1],
  ])('%j has %i classes', (password, classes) => {
    expect(passwordClasses(password)).toBe(classes);
  });
});

describe('checkNewPassword (SPEC.md 5: 6-16 characters, 3 of 4 classes)', () => {
  it.each([
    ['Ab1xyz', '6 characters, 3 classes'],
    ['Abcdefgh12345678', '16 characters, 3 classes'],
    ['abc12!', 'digits, lowercase, other'],
    ['ABC12!', 'digits, uppercase, other'],
    ['Abc!!!', 'uppercase, lowercase, other'],
    ['密码Ab12', 'Chinese counts as other'],
    ['𠮷𠮷Ab12', 'astral characters count once each (6)'],
  ])('accepts %j (%s)', (password) => {
    expect(checkNewPassword(password)).toBeNull();
  });

  it.each([
    ['', 'empty'],
    ['Ab1xy', '5 characters'],
    ['Abcdefgh12345678!', '17 characters'],
    ['abcdef12', 'two classes'],
    ['ABCDEF!!', 'two classes'],
    ['abcdefghij', 'one class'],
    ['Ab1 xyz', 'a space'],
    ['Ab1\txyz', 'a tab'],
    ['密码密码密码', 'only other'],
  ])('refuses %j (%s) with managent.lcpsd_notcorrect', (password) => {
    expect(checkNewPassword(password)).toBe(MessageKeys.lcpsdNotCorrect);
  });

  it('accepts exactly the passwords of 6-16 characters without spaces and with 3+ classes', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme-ascii', maxLength: 20 }), (password) => {
        const expected =
          charLength(password) >= 6 &&
          charLength(password) <= 16 &&
          !/\s/.test(password) &&
          passwordClasses(password) >= 3;
        expect(checkNewPassword(password) === null).toBe(expected);
      }),
    );
  });
});

describe('checkChangePassword', () => {
  it('reports each failing field with its key', () => {
    expect(checkChangePassword({ oldPassword: '', newPassword: 'ab', confirmPassword: 'abc' })).toEqual([
      { field: 'LPsd', key: 'managent.lpsd_notempty' },
      { field: 'Psd', key: 'managent.lcpsd_notcorrect' },
      { field: 'CPsd', key: 'managent.psd_notequal' },
    ]);
  });

  it('passes a valid change', () => {
    expect(checkChangePassword({ oldPassword: 'x', newPassword: 'Ab1xyz', confirmPassword: 'Ab1xyz' })).toEqual([]);
  });

  it('refuses a confirmation that differs only in case', () => {
    expect(checkChangePassword({ oldPassword: 'x', newPassword: 'Ab1xyz', confirmPassword: 'ab1xyz' })).toEqual([
      { field: 'CPsd', key: 'managent.psd_notequal' },
    ]);
  });
});

describe('passwordStrength', () => {
  it.each([
    ['', 0],
    ['abc', 1],
    ['abcdefghijkl', 1],
    ['abc123', 1],
    ['abc123defg', 2],
    ['Abc123', 2],
    ['Abc12!', 3],
    ['Abc123defg', 3],
    ['Abc12!defgh', 4],
  ])('%j scores %i', (password, score) => {
    expect(passwordStrength(password)).toBe(score);
  });

  it('stays within 0-4, is 0 only for the empty password, and never drops when a class is added', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme-ascii', maxLength: 24 }),
        fc.constantFrom('1', 'A', 'a', '!'),
        (p, extra) => {
          const score = passwordStrength(p);
          expect(score).toBeGreaterThanOrEqual(0);
          expect(score).toBeLessThanOrEqual(4);
          expect(score === 0).toBe(p === '');
          expect(passwordStrength(p + extra)).toBeGreaterThanOrEqual(score);
        },
      ),
    );
  });
});

describe('normaliseLoginName', () => {
  it('trims surrounding whitespace and keeps inner spaces', () => {
    expect(normaliseLoginName('  admin \t')).toBe('admin');
    expect(normaliseLoginName(' li lei ')).toBe('li lei');
    expect(normaliseLoginName('\u3000管理员\u3000')).toBe('管理员');
  });
});
