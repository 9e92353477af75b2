// A minimal PMTiles v3 writer (https://github.com/protomaps/PMTiles/blob/main/spec/v3/spec.md) for
// the browser tests: one root directory, no compression, tiles in tile-id order. The pmtiles
// package the console uses only reads archives; its tile ids are used here so both agree.
import { zxyToTileId } from 'pmtiles';

export interface ArchiveTile {
  z: number;
  x: number;
  y: number;
  data: Uint8Array;
}

export const TileKinds = { mvt: 1, png: 2 } as const;

function varints(values: number[]): number[] {
  const bytes: number[] = [];
  for (let value of values) {
    while (value >= 0x80) {
      bytes.push((value % 0x80) | 0x80);
      value = Math.floor(value / 0x80);
    }
    bytes.push(value);
  }
  return bytes;
}

/** The archive's bytes: header, root directory, JSON metadata, tile data. */
export function pmtilesArchive(
  tiles: ArchiveTile[],
  kind: (typeof TileKinds)[keyof typeof TileKinds],
  metadata: Record<string, unknown>,
): Buffer {
  const entries = tiles
    .map((tile) => ({ id: zxyToTileId(tile.z, tile.x, tile.y), data: tile.data, z: tile.z }))
    .sort((a, b) => a.id - b.id);
  let offset = 0;
  const placed = entries.map((entry) => {
    const at = offset;
    offset += entry.data.length;
    return { ...entry, offset: at };
  });
  const directory = Buffer.from([
    ...varints([placed.length]),
    ...varints(placed.map((entry, i) => entry.id - (i > 0 ? placed[i - 1]!.id : 0))),
    ...varints(placed.map(() => 1)),
    ...varints(placed.map((entry) => entry.data.length)),
    // Contiguous tiles write 0; the first tile its offset + 1.
    ...varints(placed.map((entry, i) => (i > 0 ? 0 : entry.offset + 1))),
  ]);
  const json = Buffer.from(JSON.stringify(metadata));
  const data = Buffer.concat(placed.map((entry) => entry.data));
  const header = Buffer.alloc(127);
  header.write('PMTiles', 0, 'ascii');
  header.writeUInt8(3, 7);
  const u64 = (at: number, value: number) => header.writeBigUInt64LE(BigInt(value), at);
  u64(8, 127);
  u64(16, directory.length);
  u64(24, 127 + directory.length);
  u64(32, json.length);
  u64(40, 127 + directory.length + json.length);
  u64(48, 0);
  u64(56, 127 + directory.length + json.length);
  u64(64, data.length);
  u64(72, placed.length);
  u64(80, placed.length);
  u64(88, placed.length);
  header.writeUInt8(1, 96); // clustered
  header.writeUInt8(1, 97); // internal compression: none
  header.writeUInt8(1, 98); // tile compression: none
  header.writeUInt8(kind, 99);
  const zooms = placed.map((entry) => entry.z);
  header.writeUInt8(Math.min(...zooms), 100);
  header.writeUInt8(Math.max(...zooms), 101);
  header.writeInt32LE(-180e7, 102);
  header.writeInt32LE(-85e7, 106);
  header.writeInt32LE(180e7, 110);
  header.writeInt32LE(85e7, 114);
  header.writeUInt8(0, 118);
  return Buffer.concat([header, directory, json, data]);
}
