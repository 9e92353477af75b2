import { encodeVideoUp } from '@intercom/terminal-client';
import { createChannel } from '../talk/talkFixtures.js';
import { createTerminalUser, loggedIn, type TerminalTestApp } from '../terminals/terminalTestApp.js';

/** A whole (tiny) JPEG picture: SOI, APP0, four bytes, EOI. */
export const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4, 0xff, 0xd9]);
/** An H.264 key frame in Annex B: SPS, PPS and an IDR slice. */
export const IDR = Buffer.from([0, 0, 0, 1, 0x67, 1, 2, 0, 0, 0, 1, 0x68, 3, 0, 0, 1, 0x65, 9, 9, 9]);
/** An H.264 P slice: useless to a viewer that has not had a key frame. */
export const P_FRAME = Buffer.from([0, 0, 0, 1, 0x41, 7, 7, 7]);

/** An upstream video frame as a terminal sends it. */
export const up = (codec: number, timestamp: number, payload: Buffer) => encodeVideoUp({ codec, timestamp, payload });

/** Sets an enterprise's VideoEnable (it defaults to FALSE). */
export async function setVideoEnable(t: TerminalTestApp, E_ID: number, value: 'TRUE' | 'FALSE'): Promise<void> {
  await t.db
    .insertInto('sys_config')
    .values({ E_ID, Code: 'VideoEnable', Value: value })
    .onConflict((oc) => oc.columns(['E_ID', 'Code']).doUpdateSet({ Value: value }))
    .execute();
}

/** A logged-in terminal user of E_ID in a new channel; `video` makes it a video channel. */
export async function channelMember(t: TerminalTestApp, E_ID: number, video: boolean) {
  const user = await createTerminalUser(t, { E_ID });
  const cid = await createChannel(t, E_ID, [{ U_ID: user.U_ID }]);
  if (video) await t.db.updateTable('channel').set({ VideoEnable: 1 }).where('CID', '=', cid).execute();
  return { ...user, cid, terminal: await loggedIn(t, user.phone) };
}
