import pg from 'pg';
import { loadConfig } from '../../apps/server/src/config.js';
import { createDeps } from '../../apps/server/src/createDeps.js';
import { seedFirstRun } from '../../apps/server/src/db/seedFirstRun.js';
import { createDatabase, seedPostgres } from '../support/seedUsers.js';
const database = await createDatabase('postgres://postgres@127.0.0.1:5432/postgres');
try {
  const config = loadConfig({ DATA_DIR: '/tmp/prof/pg', ADMIN_PASSWORD: 'Bench-Admin-2026!', DATABASE_URL: database.url });
  const { deps, database: d } = await createDeps(config, { passwordLogN: 10 });
  await seedFirstRun(deps.db, config.adminPassword, 10);
  await d.close();
  await seedPostgres(database.url, 100000);
  const c = new pg.Client({ connectionString: database.url });
  await c.connect();
  await c.query(`create view user_view_join as select u."UserID", u."E_ID", u."OS_ID", o."OSName", u."UserName", u."MobilePhone", u."ICCID", u."UType", u."PriorityLevel", u."ExpireAt", u."IsLock", u."Caps", u."GPSConfig", u."Remark", u."CreatedAt" from terminal_user u left join organ o on o."OSID" = u."OS_ID"`);
  const time = async (label: string, sql: string, params: unknown[] = []) => {
    await c.query(sql, params);
    const t0 = performance.now();
    for (let i = 0; i < 10; i++) await c.query(sql, params);
    const ms = (performance.now() - t0) / 10;
    const plan = (await c.query(`explain ${sql}`, params)).rows.map((r) => r['QUERY PLAN']).slice(0, 4).join(' / ');
    console.log(label.padEnd(22), ms.toFixed(2), 'ms  ', plan.slice(0, 220));
  };
  for (const v of ['user_view', 'user_view_join', 'terminal_user']) {
    await time(`${v} count`, `select count(*) from ${v} where "E_ID" in ($1)`, [1]);
    await time(`${v} page0`, `select * from ${v} where "E_ID" in ($1) order by "UserID" asc limit 10 offset 0`, [1]);
    await time(`${v} page5000`, `select * from ${v} where "E_ID" in ($1) order by "UserID" asc limit 10 offset 50000`, [1]);
    await time(`${v} keyset`, `select * from ${v} where "E_ID" in ($1) and "UserID" > $2 order by "UserID" asc limit 1000`, [1, 50000]);
    await time(`${v} name desc`, `select * from ${v} where "E_ID" in ($1) order by "UserName" desc, "UserID" desc limit 10`, [1]);
  }
  await c.end();
} finally {
  await database.drop();
}
