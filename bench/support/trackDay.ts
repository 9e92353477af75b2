import { onTarget, type SeedTarget } from './seedTerminals.js';

/** One fix as location_history stores it. */
export interface DayFix {
  t: number;
  lat: number;
  lon: number;
  speed: number;
  course: number;
}

/**
 * A terminal reporting every second for a whole day from `start`: each hour 45 minutes of driving
 * (30-70 km/h, turning now and then) and 15 parked, with GPS jitter of a few metres while parked,
 * so the merge, the stop rule and the speed colours all have work. Deterministic.
 */
export function dayOfFixes(start: number, seconds = 86_400, origin = { lat: 31.2304, lon: 121.4737 }): DayFix[] {
  let seed = 11;
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
  const fixes: DayFix[] = [];
  let { lat, lon } = origin;
  let heading = 45;
  for (let s = 0; s < seconds; s++) {
    const parked = s % 3600 >= 2700;
    let speed = 0;
    if (parked) {
      // Every tenth fix of a parked terminal wanders a few metres; the rest repeat exactly.
      if (s % 10 === 0) {
        lat += (random() - 0.5) * 0.00004;
        lon += (random() - 0.5) * 0.00004;
      }
    } else {
      if (s % 120 === 0) heading = (heading + (random() - 0.5) * 120 + 360) % 360;
      speed = 30 + 40 * random();
      const metres = speed / 3.6;
      lat += (metres * Math.cos((heading * Math.PI) / 180)) / 111_195;
      lon += (metres * Math.sin((heading * Math.PI) / 180)) / (111_195 * Math.cos((lat * Math.PI) / 180));
      // Keep the day within about 20 km of the start: turn back when drifting away.
      if (Math.abs(lat - origin.lat) > 0.15 || Math.abs(lon - origin.lon) > 0.15) heading = (heading + 180) % 360;
    }
    fixes.push({
      t: start + s * 1000,
      lat: round6(lat),
      lon: round6(lon),
      speed: Math.round(speed * 10) / 10,
      course: Math.round(heading),
    });
  }
  return fixes;
}

const round6 = (value: number) => Math.round(value * 1e6) / 1e6;

/** Writes the fixes of one user straight into the server's database (SQLite file or PostgreSQL). */
export async function insertFixes(
  target: SeedTarget,
  user: { E_ID: number; U_ID: number },
  fixes: DayFix[],
): Promise<void> {
  const columns = `("E_ID","U_ID","H_Time","H_Type","C_Longitude","C_Latitude","Speed","Course","Accuracy","Altitude")`;
  await onTarget(target, {
    postgres: async (client) => {
      for (let i = 0; i < fixes.length; i += 10_000) {
        const chunk = fixes.slice(i, i + 10_000);
        await client.query(
          `insert into location_history ${columns}
           select $1, $2, t, 1, lon, lat, sp, co, 5, null
           from unnest($3::bigint[], $4::float8[], $5::float8[], $6::real[], $7::real[]) as x(t, lat, lon, sp, co)`,
          [
            user.E_ID,
            user.U_ID,
            chunk.map((f) => f.t),
            chunk.map((f) => f.lat),
            chunk.map((f) => f.lon),
            chunk.map((f) => f.speed),
            chunk.map((f) => f.course),
          ],
        );
      }
    },
    sqlite: (db) => {
      const insert = db.prepare(`insert into location_history ${columns} values (?,?,?,1,?,?,?,?,5,null)`);
      db.transaction(() => {
        for (const f of fixes) insert.run(user.E_ID, user.U_ID, f.t, f.lon, f.lat, f.speed, f.course);
      })();
    },
  });
}

/** The UserID of the terminal user with this phone (seeded by seedTerminals). */
export async function userIdOf(target: SeedTarget, phone: string): Promise<number> {
  const sql = `select "UserID" as id from terminal_user where "MobilePhone" = `;
  return onTarget(
    target,
    {
      postgres: async (client) => Number((await client.query(`${sql}$1`, [phone])).rows[0]?.id),
      sqlite: (db) => Number((db.prepare(`${sql}?`).get(phone) as { id: number }).id),
    },
    true,
  );
}
