import fs from 'node:fs/promises';
import path from 'node:path';
import { OggOpusWriter, opusPacketSamples } from '@intercom/media';
import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from '../appDeps.js';
import { recordingsDir } from '../modules/media/index.js';
import type { Talker } from './floorMachine.js';
import type { Burst, BurstRecorder, TalkRoom } from './talkRoom.js';

/** The file of one burst, relative to DATA_DIR/recordings: `<E_ID>/<yyyy-mm-dd>/<cid>-<start>-<speaker>.opus`. */
export function burstPath(E_ID: number, cid: number, start: number, speakerKey: string): string {
  const day = new Date(start).toISOString().slice(0, 10);
  return path.join(String(E_ID), day, `${cid}-${start}-${speakerKey}.opus`);
}

/**
 * Records each burst of a recording room as an Ogg Opus file (RFC 7845, @intercom/media's muxer)
 * and a `recording` row once the burst ends. Pages are kept in memory until then: a burst is at
 * most the maximum talk time (60 s of Opus is a few hundred kB), and a burst that sent no audio
 * leaves neither file nor row.
 */
export function fileRecorder(deps: AppDeps, log: FastifyBaseLogger): BurstRecorder {
  return (room, talker, start) => (room.record ? new FileBurst(deps, log, room, talker, start) : null);
}

class FileBurst implements Burst {
  private readonly writer = new OggOpusWriter({ comments: ['ENCODER=intercom relay'] });
  private readonly pages: Buffer[] = [];
  private packets = 0;
  /** A dispatcher seat speaking, read at the start: the seat may be gone when the burst is stored. */
  private readonly seat: { dispatchNo: string; name: string } | null;

  constructor(
    private readonly deps: AppDeps,
    private readonly log: FastifyBaseLogger,
    private readonly room: TalkRoom,
    private readonly talker: Talker,
    private readonly start: number,
  ) {
    this.pages.push(this.writer.header());
    this.seat = room.peerOf(talker.key)?.seat ?? null;
  }

  write(opus: Buffer): void {
    // A packet's own TOC gives its length, so the file's duration is what was sent, not a count times 20 ms.
    const pages = this.writer.write(opus, opusPacketSamples(opus) ?? 960);
    if (pages.length > 0) this.pages.push(pages);
    this.packets += 1;
  }

  end(): void {
    if (this.packets === 0) return;
    this.pages.push(this.writer.end());
    const { talk } = this.deps.metrics;
    this.save().then(
      (bytes) => {
        talk.recordingsWritten.inc();
        talk.recordingBytes.inc(bytes);
      },
      (error: unknown) => {
        talk.recordingsFailed.inc();
        this.log.error({ err: error, cid: this.room.cid }, 'recording could not be stored');
      },
    );
  }

  /** Writes the file and its row; the file's size. */
  private async save(): Promise<number> {
    const { room, talker, start } = this;
    const relative = burstPath(room.E_ID, room.cid, start, talker.key);
    const file = path.join(recordingsDir(this.deps.config.dataDir), relative);
    const data = Buffer.concat(this.pages);
    // Owner-only, like the rest of DATA_DIR (db/privateFiles.ts).
    await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    await fs.writeFile(file, data, { mode: 0o600 });
    const party = room.parties?.find((p) => p.talker.key !== talker.key);
    const other = party?.user?.U_ID ?? room.remoteParty?.uid;
    await this.deps.db
      .insertInto('recording')
      .values({
        E_ID: room.E_ID,
        CID: room.kind === 'group' ? room.cid : null,
        U_ID: talker.uid > 0 ? talker.uid : null,
        ToU_ID: room.kind === 'private' && other ? other : null,
        SpeakerNo: this.seat?.dispatchNo ?? null,
        SpeakerName: this.seat?.name ?? null,
        ToSpeakerName: room.kind === 'private' ? (party?.seat?.name ?? room.remoteParty?.name ?? null) : null,
        RType: room.kind,
        StartAt: start,
        Duration: Math.round(this.writer.durationMs),
        FilePath: relative,
        Size: data.length,
      })
      .execute();
    return data.length;
  }
}
