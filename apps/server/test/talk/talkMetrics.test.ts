import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AudioOutbox } from '../../src/talk/audioOutbox.js';
import type { TalkPeer } from '../../src/talk/talkPeer.js';
import { enterpriseWithAccount } from '../helper.js';
import { readSeries, seriesDelta } from '../metricsScrape.js';
import { createTerminalUser, loggedIn, type TestTerminal } from '../terminals/terminalTestApp.js';
import {
  SPEECH,
  channelOf,
  createChannel,
  isType,
  joinAll,
  joinedChannel,
  seatOf,
  talk,
  useTalkApp,
  waitFor,
} from './talkFixtures.js';

// intercom_talk_* on /metrics (issue 35): real floors, frames, seats, calls and recordings move them.
const t = useTalkApp();

const read = (series: readonly string[]) => readSeries(t.origin, series);

describe('talk metrics', () => {
  it('count grants, refusals, revokes by reason, grant time and relayed and refused frames', async () => {
    const series = [
      'intercom_talk_floors_granted_total',
      'intercom_talk_floor_grant_seconds_count',
      'intercom_talk_floors_refused_total{reason="busy"}',
      'intercom_talk_floors_revoked_total{reason="preempted"}',
      'intercom_talk_floors_revoked_total{reason="silence"}',
      'intercom_talk_frames_relayed_total',
      'intercom_talk_frames_refused_total{reason="not_holder"}',
      'intercom_talk_rooms{kind="channel"}',
    ] as const;
    const before = await read(series);
    const { cid, terminals } = await joinedChannel(t, t.demo.E_ID, [3, 3, 5]);
    const [low, equal, high] = terminals;
    expect(await low.request({ type: 'floorRequest', cid })).toMatchObject({ granted: true });
    expect(await equal.request({ type: 'floorRequest', cid })).toMatchObject({ type: 'error' });
    expect(await high.request({ type: 'floorRequest', cid })).toMatchObject({ granted: true });
    await low.next(isType('floorRevoked', { cid, reason: 'preempted' }));
    await talk(high, cid, SPEECH.slice(0, 5));
    await waitFor(() => equal.frames.length === 5);
    // The pre-empted talker's late frames are refused.
    await talk(low, cid, SPEECH.slice(0, 3));
    expect((await high.request({ type: 'floorRelease', cid })).type).toBe('ack');
    await equal.next(isType('floorIdle', { cid }));
    // Granted and then silent: revoked for silence (400 ms here).
    expect(await equal.request({ type: 'floorRequest', cid })).toMatchObject({ granted: true });
    await equal.next(isType('floorRevoked', { cid, reason: 'silence' }));
    await waitFor(() => t.app.talk.service.counters.notHolder >= 3);

    const moved = seriesDelta(before, await read(series));
    expect(moved).toEqual({
      intercom_talk_floors_granted_total: 3,
      intercom_talk_floor_grant_seconds_count: 3,
      'intercom_talk_floors_refused_total{reason="busy"}': 1,
      'intercom_talk_floors_revoked_total{reason="preempted"}': 1,
      'intercom_talk_floors_revoked_total{reason="silence"}': 1,
      intercom_talk_frames_relayed_total: 5,
      'intercom_talk_frames_refused_total{reason="not_holder"}': 3,
      'intercom_talk_rooms{kind="channel"}': 1,
    });
    for (const m of [low, equal, high]) m.close();
  });

  it('show seats and calls open, count calls connected and recordings written and failed', async () => {
    const series = [
      'intercom_talk_seats',
      'intercom_talk_rooms{kind="call"}',
      'intercom_talk_calls_started_total',
      'intercom_talk_recordings_written_total',
      'intercom_talk_recordings_failed_total',
      'intercom_talk_recording_bytes_total',
    ] as const;
    const before = await read(series);
    const dispatcher = await seatOf(t);
    const [a, b] = await Promise.all([0, 1].map(() => createTerminalUser(t, { E_ID: t.demo.E_ID })));
    if (!a || !b) throw new Error('two users');
    const caller = await loggedIn(t, a.phone);
    const callee = await loggedIn(t, b.phone);
    const ack = await caller.request({ type: 'call', uid: b.U_ID });
    const callId = ack.cid as number;
    await callee.next(isType('callStart', { cid: callId }));
    expect(seriesDelta(before, await read(series))).toMatchObject({
      intercom_talk_seats: 1,
      'intercom_talk_rooms{kind="call"}': 1,
      intercom_talk_calls_started_total: 1,
    });
    expect((await callee.request({ type: 'hangup', cid: callId })).type).toBe('ack');
    dispatcher.close();
    await dispatcher.closed;

    // One enterprise records fine; another one's recordings folder is blocked by a file.
    const ok = await enterpriseWithAccount(t, { role: 'admin' });
    const blocked = await enterpriseWithAccount(t, { role: 'admin' });
    const recordings = path.join(t.deps.config.dataDir, 'recordings');
    fs.mkdirSync(recordings, { recursive: true });
    fs.writeFileSync(path.join(recordings, String(blocked.E_ID)), 'not a folder');
    for (const { E_ID } of [ok, blocked]) {
      await t.db.insertInto('sys_config').values({ E_ID, Code: 'RecordEnable', Value: 'TRUE' }).execute();
      const { cid, members } = await channelOf(t, E_ID, [0, 0], true);
      await joinAll(members, cid);
      const talker = members[0]?.terminal as TestTerminal;
      expect(await talker.request({ type: 'floorRequest', cid })).toMatchObject({ granted: true });
      await talk(talker, cid, SPEECH.slice(0, 10), 5);
      await talker.request({ type: 'floorRelease', cid });
      for (const m of members) m.terminal.close();
    }
    let moved: Record<string, number> = {};
    for (let i = 0; i < 200; i += 1) {
      moved = seriesDelta(before, await read(series));
      if ((moved.intercom_talk_recordings_written_total ?? 0) + (moved.intercom_talk_recordings_failed_total ?? 0) >= 2)
        break;
      await new Promise((r) => setTimeout(r, 25));
    }
    const row = await t.db.selectFrom('recording').select('Size').where('E_ID', '=', ok.E_ID).executeTakeFirstOrThrow();
    expect(moved).toEqual({
      intercom_talk_seats: 0,
      'intercom_talk_rooms{kind="call"}': 0,
      intercom_talk_calls_started_total: 1,
      intercom_talk_recordings_written_total: 1,
      intercom_talk_recordings_failed_total: 1,
      intercom_talk_recording_bytes_total: row.Size,
    });
    caller.close();
    callee.close();
  });

  it('count the frames a listener whose socket does not drain loses to its bounded queue', async () => {
    const [talker, slow] = await Promise.all([0, 1].map(() => createTerminalUser(t, { E_ID: t.demo.E_ID })));
    if (!talker || !slow) throw new Error('two users');
    const cid = await createChannel(t, t.demo.E_ID, [{ U_ID: talker.U_ID }, { U_ID: slow.U_ID }]);
    // A listener whose writes never complete (a stalled link): 2 frames in flight, 5 waiting.
    const stalled = new AudioOutbox({ send: () => undefined }, 2, 5);
    const noop = () => undefined;
    const listener: TalkPeer = {
      talker: { key: `U${slow.U_ID}`, uid: slow.U_ID, name: 'slow', priority: 0 },
      E_ID: t.demo.E_ID,
      user: { U_ID: slow.U_ID, E_ID: t.demo.E_ID, Phone: slow.phone, UserName: 'slow' },
      seat: null,
      outbox: stalled,
      send: noop,
      notify: noop,
      ack: noop,
      error: noop,
    };
    const service = t.app.talk.service;
    service.attach(listener);
    await service.join(listener, cid, 1);
    const name = 'intercom_talk_frames_dropped_total';
    const before = await read([name]);
    const terminal = await loggedIn(t, talker.phone);
    expect((await terminal.request({ type: 'join', cid })).type).toBe('ack');
    expect(await terminal.request({ type: 'floorRequest', cid })).toMatchObject({ granted: true });
    await talk(terminal, cid, SPEECH.slice(0, 20));
    await waitFor(() => service.counters.relayed >= 20 && stalled.dropped === 13);
    expect(seriesDelta(before, await read([name]))).toEqual({ [name]: 13 });
    service.detach(listener);
    terminal.close();
  });
});
