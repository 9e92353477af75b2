import { organSaveSchema, userBatchSchema, userSaveSchema } from '@intercom/contract';
import { describe, expect, it } from 'vitest';
import { fieldPath } from './applyServerErrors';
import { contractErrors } from './contractErrors';

describe('contract validation in the forms', () => {
  it('names the ICCID rule of SPEC.md section 5 at its edges', () => {
    const base = { UserID: 0, UserName: 'A', MobilePhone: '13800000000', Password: 'abc123' };
    const iccid = (length: number) => contractErrors(userSaveSchema, { ...base, ICCID: '8'.repeat(length) });
    expect(iccid(18)).toEqual([{ field: 'ICCID', key: 'user.iccid_length' }]);
    expect(iccid(19)).toEqual([]);
    expect(iccid(20)).toEqual([]);
    expect(iccid(21)).toEqual([{ field: 'ICCID', key: 'user.iccid_length' }]);
    expect(contractErrors(userSaveSchema, { ...base, ICCID: '' })).toEqual([]);
  });

  it('reports one key per field, under dotted paths for lists', () => {
    const errors = contractErrors(userBatchSchema, {
      prefix: 'a',
      start: '1380000',
      count: 100,
      Password: 'abc123',
      ConfirmPassword: 'abc124',
    });
    expect(errors).toEqual(
      expect.arrayContaining([
        { field: 'prefix', key: 'user.prefix_invalid' },
        { field: 'count', key: 'user.batch_too_many' },
        { field: 'ConfirmPassword', key: 'managent.psd_notequal' },
      ]),
    );
    expect(contractErrors(organSaveSchema, { OSID: 0, OSName: '  ' })).toEqual([
      { field: 'OSName', key: 'validation.required' },
    ]);
  });

  it('turns a server field name into a form path', () => {
    expect(fieldPath('rows.3.MobilePhone')).toEqual(['rows', 3, 'MobilePhone']);
    expect(fieldPath('UserName')).toEqual(['UserName']);
  });
});
