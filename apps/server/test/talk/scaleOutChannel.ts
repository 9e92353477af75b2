import type { ScaleOut } from '../terminals/scaleOutApps.js';
import { loggedIn } from '../terminals/terminalTestApp.js';
import { createChannel, joinAll, type Member } from './talkFixtures.js';

/** A channel both instances know, its members logged in on the instance named for each, and joined. */
export async function channelAcross(
  s: ScaleOut,
  members: { on: 'a' | 'b'; priority?: number }[],
): Promise<{ cid: number; members: (Member & { phone: string })[] }> {
  const users = [];
  for (const _ of members) users.push(await s.user());
  const rows = users.map((u, i) => ({ U_ID: u.U_ID, priority: members[i]?.priority ?? 0 }));
  const cid = await createChannel(s.a, s.a.demo.E_ID, rows);
  if (!s.shared) {
    // Separate SQLite databases: give B the rows a shared database would hold.
    const channel = await s.a.db.selectFrom('channel').selectAll().where('CID', '=', cid).executeTakeFirstOrThrow();
    await s.b.db.insertInto('channel').values(channel).execute();
    const memberRows = await s.a.db.selectFrom('channel_member').selectAll().where('CID', '=', cid).execute();
    await s.b.db.insertInto('channel_member').values(memberRows).execute();
  }
  const joined = await Promise.all(
    users.map(async (u, i) => ({
      U_ID: u.U_ID,
      phone: u.phone,
      terminal: await loggedIn(members[i]?.on === 'b' ? s.b : s.a, u.phone),
    })),
  );
  await joinAll(joined, cid);
  return { cid, members: joined };
}
