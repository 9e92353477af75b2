import { verifyPassword } from '../src/auth/passwords.js';
import { describe, expect, it } from 'vitest';
import { sysLogOf } from './helper.js';
import { addOrgan, addUser, countRows, tenant, uniqueIccid, uniquePhone } from './directoryFixtures.js';
import { csv, report, upload, xlsx, type Cells } from './userImportFixtures.js';
import { useTestApp } from './useTestApp.js';

const t = useTestApp();

async function addChannel(E_ID: number, CName: string): Promise<number> {
  const row = await t.db
    .insertInto('channel')
    .values({ E_ID, CName, CTypeID: 0, Note: '', Priority: 0, VideoEnable: 0, Record: 0, CreatedAt: Date.now() })
    .returning('CID')
    .executeTakeFirstOrThrow();
  return row.CID;
}

async function userOf(phone: string) {
  return t.db.selectFrom('terminal_user').selectAll().where('MobilePhone', '=', phone).executeTakeFirst();
}

async function channelsOf(UserID: number): Promise<number[]> {
  const rows = await t.db
    .selectFrom('channel_member')
    .select('CID')
    .where('UserID', '=', UserID)
    .orderBy('CID')
    .execute();
  return rows.map((r) => r.CID);
}

async function importLogs(E_ID: number) {
  return (await sysLogOf(t.db, E_ID)).filter((r) => r.Action === 'user_import');
}

/** A tenant with two channels and a department Sales/North. */
async function setup(quota = 100) {
  const a = await tenant(t, { quota });
  const dispatch = await addChannel(a.E_ID, 'Dispatch');
  const sales = await addChannel(a.E_ID, 'Sales team');
  const salesId = await addOrgan(a.api, { OSName: 'Sales' });
  const north = await addOrgan(a.api, { OSName: 'North', OSParentID: salesId });
  return { a, dispatch, sales, north };
}

function person(cells: Cells = {}): Cells {
  const phone = uniquePhone();
  return { UserName: `imp ${phone}`, MobilePhone: phone, Password: 'term-123', Priority: '2', ...cells };
}

describe('POST /api/UserInfo/Import', () => {
  it('creates users with departments, SIMs and channels; a second run changes nothing; one log row per import', async () => {
    const { a, dispatch, sales, north } = await setup();
    const iccid = uniqueIccid();
    const rows = [
      person({ Department: 'Sales/North', Channels: 'Dispatch;Sales team', ICCID: iccid, Remark: 'first' }),
      person({ Department: ' Sales / North ', Channels: 'Dispatch', Priority: '7' }),
      person({ Password: '', Department: '', Channels: '' }),
    ];
    const first = report(await upload(a.api, csv(rows), 'skipInvalid=false'));
    expect(first).toMatchObject({
      total: 3,
      valid: 3,
      created: 3,
      updated: 0,
      unchanged: 0,
      skipped: 0,
      written: true,
      errors: [],
    });
    const u0 = await userOf(rows[0]?.MobilePhone as string);
    expect(u0).toMatchObject({ E_ID: a.E_ID, OS_ID: north, ICCID: iccid, PriorityLevel: 2, Remark: 'first' });
    expect(await channelsOf(u0?.UserID as number)).toEqual([dispatch, sales]);
    const device = await t.db
      .selectFrom('device')
      .select(['E_ID', 'UserID'])
      .where('ICCID', '=', iccid)
      .executeTakeFirst();
    expect(device).toEqual({ E_ID: a.E_ID, UserID: u0?.UserID });
    const u1 = await userOf(rows[1]?.MobilePhone as string);
    expect(u1).toMatchObject({ OS_ID: north, PriorityLevel: 7 });
    expect(await verifyPassword('term-123', u0?.PasswordHash as string)).toBe(true);

    // The empty Password cell got a generated password, returned once as CSV.
    const csvLines = (first.PasswordsCsv ?? '').trim().split('\r\n');
    expect(csvLines[0]).toBe('MobilePhone,UserName,Password');
    expect(csvLines).toHaveLength(2);
    const [phone, , generated] = (csvLines[1] ?? '').split(',');
    expect(phone).toBe(rows[2]?.MobilePhone);
    expect(generated).toMatch(/^[A-Za-z0-9]{10}$/);
    const u2 = await userOf(phone as string);
    expect(await verifyPassword(generated as string, u2?.PasswordHash as string)).toBe(true);

    const logs = await importLogs(a.E_ID);
    expect(logs).toHaveLength(1);
    expect(JSON.parse(logs[0]?.Summary ?? '{}')).toMatchObject({ total: 3, created: 3, updated: 0, unchanged: 0 });
    expect(logs[0]?.Summary).not.toContain(generated);
    expect(logs[0]?.Summary).not.toContain('term-123');

    const again = report(await upload(a.api, csv(rows)));
    expect(again).toMatchObject({
      total: 3,
      valid: 3,
      created: 0,
      updated: 0,
      unchanged: 3,
      written: true,
      PasswordsCsv: null,
    });
    expect(await countRows(t, 'terminal_user', a.E_ID)).toBe(3);
    expect(await countRows(t, 'organ', a.E_ID)).toBe(2);
    expect(await channelsOf(u0?.UserID as number)).toEqual([dispatch, sales]);
    expect(await importLogs(a.E_ID)).toHaveLength(2);
  });

  it('updates a known phone: only what the row changes; a changed password is re-hashed', async () => {
    const { a, dispatch } = await setup();
    const known = await addUser(a.api, { Remark: 'keep me', PriorityLevel: 1 });
    const row = {
      MobilePhone: known.MobilePhone,
      UserName: 'Renamed',
      Priority: '5',
      Channels: 'Dispatch',
      Password: 'new-pass-9',
    };
    const res = report(await upload(a.api, csv([row])));
    expect(res).toMatchObject({ created: 0, updated: 1, unchanged: 0 });
    const after = await userOf(known.MobilePhone);
    expect(after).toMatchObject({ UserName: 'Renamed', PriorityLevel: 5, Remark: 'keep me', UserID: known.UserID });
    expect(await verifyPassword('new-pass-9', after?.PasswordHash as string)).toBe(true);
    expect(await channelsOf(known.UserID)).toEqual([dispatch]);
    expect(report(await upload(a.api, csv([row])))).toMatchObject({ updated: 0, unchanged: 1 });
  });

  it('dry run: the same report as the import, and nothing written (users, departments, SIMs, members, log)', async () => {
    const { a } = await setup();
    const rows = [
      person({ Department: 'Support/Night', Channels: 'Dispatch', ICCID: uniqueIccid() }),
      person({ Password: '' }),
    ];
    const dry = report(await upload(a.api, csv(rows), 'dryRun=true&createDepartments=true'));
    expect(dry).toMatchObject({
      total: 2,
      valid: 2,
      created: 2,
      departmentsCreated: 2,
      written: false,
      PasswordsCsv: null,
    });
    expect(await countRows(t, 'terminal_user', a.E_ID)).toBe(0);
    expect(await countRows(t, 'organ', a.E_ID)).toBe(2);
    expect(await countRows(t, 'device', a.E_ID)).toBe(0);
    expect(await t.db.selectFrom('channel_member').select('CID').where('E_ID', '=', a.E_ID).execute()).toEqual([]);
    expect(await importLogs(a.E_ID)).toHaveLength(0);
    const real = report(await upload(a.api, csv(rows), 'createDepartments=true'));
    expect({ ...real, written: false, PasswordsCsv: null, preview: dry.preview }).toEqual(dry);
    expect(await countRows(t, 'organ', a.E_ID)).toBe(4);
    const user = await userOf(rows[0]?.MobilePhone as string);
    const organ = await t.db
      .selectFrom('organ')
      .select(['OSName', 'OSParentID'])
      .where('OSID', '=', user?.OS_ID as number)
      .executeTakeFirst();
    expect(organ?.OSName).toBe('Night');
  });

  it('dry run: a preview of the first 100 rows as read, passwords masked; an import sends none', async () => {
    const { a } = await setup();
    const rows = Array.from({ length: 102 }, () => person({ Remark: '=HYPERLINK("http://x","y")' }));
    rows[1] = person({ MobilePhone: '12ab', Password: '' });
    const dry = report(await upload(a.api, csv(rows), 'dryRun=true&skipInvalid=true'));
    expect(dry.preview).toHaveLength(100);
    expect(dry.preview?.map((p) => p.row)).toEqual(Array.from({ length: 100 }, (_, i) => i + 2));
    expect(dry.preview?.[0]?.values).toMatchObject({
      UserName: rows[0]?.UserName,
      MobilePhone: rows[0]?.MobilePhone,
      Password: '********',
      Priority: '2',
      Remark: '=HYPERLINK("http://x","y")',
    });
    expect(dry.preview?.[1]?.values.MobilePhone).toBe('12ab');
    expect(dry.preview?.[1]?.values.Password ?? '').toBe('');
    expect(JSON.stringify(dry.preview)).not.toContain('term-123');
    expect(dry.errors).toContainEqual(expect.objectContaining({ row: 3, field: 'MobilePhone' }));
    const done = report(await upload(a.api, csv(rows.slice(0, 1)), ''));
    expect(done.written).toBe(true);
    expect(done.preview).toBeUndefined();
  });

  it('one invalid row writes nothing; with skipInvalid the valid rows are written and the invalid skipped', async () => {
    const { a } = await setup();
    const rows = [person(), person({ MobilePhone: '12ab' }), person()];
    const strict = report(await upload(a.api, csv(rows)));
    expect(strict).toMatchObject({ total: 3, valid: 2, skipped: 1, written: false });
    expect(strict.errors).toEqual([
      { row: 3, field: 'MobilePhone', code: 'user.phone_invalid', message: 'The phone must be 3-20 digits' },
    ]);
    expect(await countRows(t, 'terminal_user', a.E_ID)).toBe(0);
    expect(await importLogs(a.E_ID)).toHaveLength(0);
    const loose = report(await upload(a.api, csv(rows), 'skipInvalid=true'));
    expect(loose).toMatchObject({ total: 3, valid: 2, created: 2, skipped: 1, written: true });
    expect(await countRows(t, 'terminal_user', a.E_ID)).toBe(2);
  });

  it('reports each bad cell with its row, field, code and translated message', async () => {
    const { a } = await setup();
    const other = await setup();
    const taken = await addUser(other.a.api);
    const dup = uniquePhone();
    const rows: Cells[] = [
      person({ ICCID: '12345' }),
      person({ ICCID: '8986000000000000 0X' }),
      person({ Department: 'Nowhere' }),
      person({ Channels: 'Dispatch;Ghost' }),
      person({ Priority: '8' }),
      person({ MobilePhone: dup }),
      person({ MobilePhone: dup }),
      person({ MobilePhone: taken.MobilePhone }),
      person({ UserName: '' }),
      person({ Password: 'short' }),
      person({ UserType: '9999' }),
      person({ MobilePhone: '' }),
    ];
    const res = report(await upload(a.api, csv(rows), 'skipInvalid=true&lang=zh'));
    expect(res).toMatchObject({ total: 12, valid: 1, created: 1, skipped: 11 });
    expect(res.errors.map((e) => [e.row, e.field, e.code])).toEqual([
      [2, 'ICCID', 'user.iccid_length'],
      [3, 'ICCID', 'user.iccid_invalid'],
      [4, 'Department', 'userImport.department_unknown'],
      [5, 'Channels', 'userImport.channel_unknown'],
      [6, 'Priority', 'validation.out_of_range'],
      [8, 'MobilePhone', 'userImport.duplicate_in_file'],
      [9, 'MobilePhone', 'userImport.cannot_import'],
      [10, 'UserName', 'validation.required'],
      [11, 'Password', 'user.password_invalid'],
      [12, 'UserType', 'userImport.user_type_unknown'],
      [13, 'MobilePhone', 'validation.required'],
    ]);
    expect(res.errors[2]?.message).toBe('本企业没有该部门');
    const es = report(
      await upload(a.api, csv([person({ Channels: 'Ghost' })]), 'dryRun=true', {
        headers: { 'accept-language': 'es-ES,es;q=0.9' },
      }),
    );
    expect(es.errors[0]?.message).toBe('No existe ese canal en esta empresa');
  });

  it("refuses another enterprise's department and channel names, even with createDepartments only creating its own", async () => {
    const { a } = await setup();
    const b = await tenant(t);
    await addChannel(b.E_ID, 'Their channel');
    await addOrgan(b.api, { OSName: 'Theirs' });
    const rows = [person({ Department: 'Theirs' }), person({ Channels: 'Their channel' })];
    const res = report(await upload(a.api, csv(rows)));
    expect(res.errors.map((e) => e.code)).toEqual(['userImport.department_unknown', 'userImport.channel_unknown']);
    expect(await countRows(t, 'terminal_user', a.E_ID)).toBe(0);
    const created = report(await upload(a.api, csv([rows[0] as Cells]), 'createDepartments=true'));
    expect(created.created).toBe(1);
    const user = await userOf(rows[0]?.MobilePhone as string);
    const organ = await t.db
      .selectFrom('organ')
      .select(['E_ID'])
      .where('OSID', '=', user?.OS_ID as number)
      .executeTakeFirst();
    expect(organ?.E_ID).toBe(a.E_ID);
    expect(await countRows(t, 'organ', b.E_ID)).toBe(1);
  });

  it('counts the licences before any write: more new users than licences writes nothing, even with skipInvalid', async () => {
    const { a } = await setup(2);
    const rows = [person(), person(), person()];
    const res = report(await upload(a.api, csv(rows), 'skipInvalid=true'));
    expect(res).toMatchObject({ created: 3, written: false });
    expect(res.errors).toEqual([
      { row: 0, field: 'file', code: 'userImport.quota', message: 'Not enough user licences for the new users' },
    ]);
    expect(await countRows(t, 'terminal_user', a.E_ID)).toBe(0);
    expect(report(await upload(a.api, csv(rows.slice(0, 2))))).toMatchObject({ created: 2, written: true });
  });

  it('accepts headers in any of the four languages and XLSX; a formula cell is stored as its text', async () => {
    const { a, north } = await setup();
    const zh = person({ Department: 'Sales/North' });
    const zhHeader = ['用户名', '手机号', '密码', '部门', '优先级'];
    const zhNames = ['UserName', 'MobilePhone', 'Password', 'Department', 'Priority'];
    expect(report(await upload(a.api, `\uFEFF${csv([zh], zhHeader, zhNames)}`))).toMatchObject({ created: 1 });
    expect(await userOf(zh.MobilePhone as string)).toMatchObject({ OS_ID: north });

    const phone = uniquePhone();
    const file = await xlsx([
      ['ユーザー名', '携帯電話番号', 'パスワード', '備考', 'Priority'],
      [
        { formula: 'CONCATENATE("a","b")', result: 'ab' },
        phone,
        'term-123',
        { formula: 'HYPERLINK("http://x","y")', result: 'y' },
        '3',
      ],
    ]);
    const res = report(await upload(a.api, file, '', { fileName: 'users.xlsx' }));
    expect(res).toMatchObject({ created: 1, errors: [] });
    expect(await userOf(phone)).toMatchObject({
      UserName: '=CONCATENATE("a","b")',
      Remark: '=HYPERLINK("http://x","y")',
      PriorityLevel: 3,
    });
  });
});

describe('GET /api/UserInfo/ImportTemplate', () => {
  it('gives the header in the language asked and an example row; the filled-in template imports', async () => {
    const { a } = await setup();
    const res = await a.api.get('/api/UserInfo/ImportTemplate?format=csv&lang=zh');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    const [header, example] = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(header).toBe('用户名,手机号,密码,ICCID,部门,用户类型,频道,优先级,备注');
    expect(example).toContain('13800000001');
    const phone = uniquePhone();
    const filled = `${header}\r\nFilled,${phone},term-123,,Sales/North,0,Dispatch;Sales team,1,\r\n`;
    expect(report(await upload(a.api, filled))).toMatchObject({ created: 1, errors: [] });

    await addChannel(a.E_ID, 'Sales');
    const book = await a.api.get('/api/UserInfo/ImportTemplate?format=xlsx&lang=ja');
    expect(book.headers['content-type']).toContain('spreadsheetml');
    const dry = report(
      await upload(a.api, book.rawPayload, 'dryRun=true&createDepartments=true', { fileName: 't.xlsx' }),
    );
    expect(dry).toMatchObject({ total: 1, valid: 1, created: 1, errors: [] });
  });

  it('refuses an unknown format or language (4000)', async () => {
    const { a } = await setup();
    for (const q of ['format=pdf', 'lang=fr']) {
      const res = await a.api.get(`/api/UserInfo/ImportTemplate?${q}`);
      expect(res.statusCode).toBe(400);
    }
  });
});
