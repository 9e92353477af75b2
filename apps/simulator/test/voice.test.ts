import { speechPackets } from '@intercom/media';
import { encodeAudioUp } from '@intercom/terminal-client';
import { describe, expect, it } from 'vitest';
import { OneSosDevice } from '../src/device.js';
import { startFleet } from '../src/fleet.js';
import { seededRandom } from '../src/movement.js';
import { sleep, until } from '../../server/test/hub/hubTestApp.js';
import { CENTRE, fleetOptions, simTerminal, useSimServer } from './fleetFixtures.js';
import { adminToken, heard, postJson, seatOf } from './seatOf.js';

// Issue 51: simulated terminals behave like people with radios. They follow an incident into its
// channel and back, and the worker who raised an SOS speaks in the emergency call.

describe('simulated terminals follow incidents and speak in emergency calls', () => {
  const t = useSimServer();

  it('talks in the incident channel it was regrouped into, and in its own again after the close', async () => {
    const fleet = await startFleet(
      fleetOptions(t, { phoneStart: '19600000000', radiusKm: 0.2, talkEvery: 2, talkGroup: 3 }),
      () => undefined,
    );
    try {
      await until(() => fleet.stats.loggedIn === 3 && fleet.stats.acked >= 6, 'three terminals reporting', 10_000);
      const home = await t.db
        .selectFrom('channel')
        .select('CID')
        .where('CName', '=', 'Sim 19600000000')
        .executeTakeFirstOrThrow();
      const token = await adminToken(t);
      const zone = { Name: 'Warehouse fire', Kind: 'circle', Center: [CENTRE.lat, CENTRE.lon], Radius: 5000 };
      const incident = await postJson<{ IN_ID: number; CID: number }>(t, token, '/api/Incident/Create', zone);
      const seat = await seatOf(t, token);
      expect(await seat.request({ type: 'join', cid: incident.CID })).toMatchObject({ type: 'ack' });
      // The regrouped terminals report in: the seat in the incident channel hears one of them.
      await until(() => heard(seat, incident.CID).length >= 20, 'a terminal heard in the incident channel', 20_000);
      expect(heard(seat, incident.CID).every((frame) => frame.speaker > 0 && frame.bytes > 0)).toBe(true);

      await postJson(t, token, '/api/Incident/Close', { IN_ID: incident.IN_ID });
      expect(await seat.request({ type: 'join', cid: home.CID })).toMatchObject({ type: 'ack' });
      const mark = seat.frames.length;
      await until(() => heard(seat, home.CID, mark).length >= 20, 'a terminal heard in its own channel again', 20_000);
      seat.close();
      expect(Object.fromEntries(fleet.stats.errorCodes)).toEqual({});
    } finally {
      await fleet.stop();
    }
  });

  it('speaks in its emergency call, answers the dispatcher without cutting them off, and hangs up after silence', async () => {
    const seat = await seatOf(t);
    const { U_ID, stats, terminal } = await simTerminal(t, {
      device: new OneSosDevice(CENTRE, 0.2, seededRandom(3), 0),
      speech: speechPackets('unit-three'),
      emergency: { firstMs: 200, everyMs: 1_000, talkingEveryMs: 60_000, answerMs: 300, hangUpAfterMs: 4_000 },
    });
    terminal.start();
    try {
      const start = await seat.next((m) => m.type === 'callStart' && m.emergency === true && m.from === U_ID, 10_000);
      const cid = Number(start.cid);
      // The worker is heard without anyone talking first (real Opus packets, its own speaker id).
      await until(() => heard(seat, cid).length >= 50, 'the worker heard in the call', 10_000);
      expect(heard(seat, cid).every((frame) => frame.speaker === U_ID && frame.bytes > 0)).toBe(true);

      // The dispatcher talks when the worker pauses (busy while it speaks), and is never cut off.
      let granted = false;
      while (!granted) {
        const reply = await seat.request({ type: 'floorRequest', cid });
        granted = reply.type === 'ack' && reply.granted === true;
        if (!granted) await sleep(100);
      }
      const packets = speechPackets('copy').slice(0, 25);
      for (const [seq, opus] of packets.entries()) {
        seat.socket.send(encodeAudioUp({ cid, seq, opus }, (bytes) => Buffer.allocUnsafe(bytes)));
        await sleep(20);
      }
      const released = seat.frames.length;
      expect(await seat.request({ type: 'floorRelease', cid })).toMatchObject({ type: 'ack' });
      // It answers (its next burst would only come a minute later otherwise).
      await until(() => heard(seat, cid, released).length >= 50, 'the worker answers', 10_000);
      expect(seat.received.some((m) => m.type === 'floorRevoked' && m.cid === cid)).toBe(false);

      // Nobody speaks to it any more: it hangs up, and the call ends for the seat.
      await seat.next((m) => m.type === 'callEnd' && m.cid === cid, 15_000);
      expect(stats.emergencyCalls).toBe(1);
      const after = seat.frames.length;
      await sleep(500);
      expect(heard(seat, cid, after)).toHaveLength(0);
    } finally {
      seat.close();
      await terminal.stop();
    }
  });
});
