import { CellGroups, type Cell } from './CellGroups';
import { gridOf } from './webMercator';

/** Highest zoom with clusters: from the next one every user is drawn on its own. */
export const CLUSTER_MAX_ZOOM = 11;
/**
 * Cells across a tile at the cluster zooms. A tile is drawn 512 px wide, so a cell is 64 px (a
 * cluster's circle is 28-48 px across).
 */
export const CLUSTER_CELLS_PER_TILE = 8;
/** Users closer than this on screen are drawn as one cluster (CellGroups; at most a cell's width). */
export const CLUSTER_RADIUS_PX = 45;
/** Cells across the world's grid keys: a cell's key is row × CELL_STRIDE + column (2^11 tiles of 8 cells). */
export const CELL_STRIDE = 2 ** 14;
/** Cluster ids: zoom × ZOOM_STRIDE + the key of the cell that owns the cluster. */
export const CLUSTER_ID_ZOOM_STRIDE = 2 ** 28;

/** Where a user falls in the grid: Web Mercator (0-1), and whether it is in SOS (never clustered). */
export interface GridPoint {
  x: number;
  y: number;
  sos: boolean;
}

/** One tile of a cluster zoom: its cells by key, and its users in SOS, never clustered. */
export interface ClusterTile {
  cells: Map<number, Cell>;
  alone: Set<number>;
}

/**
 * The users counted in a grid of cells at each cluster zoom (0 to CLUSTER_MAX_ZOOM), each cell with
 * its count and the sums of its users' places, changed in place: a move takes a user out of one cell
 * and into another at each zoom, or only changes the sums where it stays in its cell. Users in SOS
 * are kept apart, in their tile's `alone`. CellGroups says which cells are drawn together.
 */
export class ClusterGrid {
  /** For each cluster zoom, its tiles by key (row × 2^z + column). */
  private levels: Map<number, ClusterTile>[] = [];

  constructor() {
    this.clear();
  }

  /** Every user at once: counted in the cells of the deepest zoom, each zoom above then sums the one below. */
  load(points: Iterable<[number, GridPoint]>): void {
    this.clear();
    for (const [id, point] of points) {
      if (point.sos) {
        for (let z = 0; z <= CLUSTER_MAX_ZOOM; z++) this.placeCell(z, id, point, 1);
      } else {
        this.placeCell(CLUSTER_MAX_ZOOM, id, point, 1);
      }
    }
    for (let z = CLUSTER_MAX_ZOOM - 1; z >= 0; z--) {
      for (const tile of this.levels[z + 1]!.values()) {
        for (const [cellKey, cell] of tile.cells) {
          const cx = Math.floor((cellKey % CELL_STRIDE) / 2);
          const cy = Math.floor(Math.floor(cellKey / CELL_STRIDE) / 2);
          const parent = cellOf(this.tileOfCell(z, cx, cy), cy * CELL_STRIDE + cx);
          parent.count += cell.count;
          parent.sumX += cell.sumX;
          parent.sumY += cell.sumY;
          parent.sumId += cell.sumId;
        }
      }
    }
  }

  add(id: number, point: GridPoint): void {
    for (let z = 0; z <= CLUSTER_MAX_ZOOM; z++) this.placeCell(z, id, point, 1);
  }

  remove(id: number, point: GridPoint): void {
    for (let z = 0; z <= CLUSTER_MAX_ZOOM; z++) this.placeCell(z, id, point, -1);
  }

  move(id: number, old: GridPoint, point: GridPoint): void {
    if (old.sos !== point.sos) {
      this.remove(id, old);
      this.add(id, point);
      return;
    }
    for (let z = 0; z <= CLUSTER_MAX_ZOOM; z++) {
      const cells = 2 ** z * CLUSTER_CELLS_PER_TILE;
      const ox = gridOf(old.x, cells);
      const oy = gridOf(old.y, cells);
      const nx = gridOf(point.x, cells);
      const ny = gridOf(point.y, cells);
      if (ox !== nx || oy !== ny) {
        this.placeAt(z, id, old, ox, oy, -1);
        this.placeAt(z, id, point, nx, ny, 1);
      } else if (!point.sos) {
        const cell = this.cellAt(z, nx, ny)!;
        cell.sumX += point.x - old.x;
        cell.sumY += point.y - old.y;
      }
    }
  }

  /** Tile x/y of zoom z (z at most CLUSTER_MAX_ZOOM); undefined where no user is. */
  tile(z: number, x: number, y: number): ClusterTile | undefined {
    return this.levels[z]?.get(y * 2 ** z + x);
  }

  /** How the cells of zoom z are drawn together (worked out afresh: the cells change with each batch). */
  groups(z: number): CellGroups {
    return new CellGroups((cx, cy) => this.cellAt(z, cx, cy), z, CLUSTER_RADIUS_PX, CELL_STRIDE);
  }

  /**
   * The zoom at which a cluster falls apart (a click zooms there): the first zoom below where its
   * users are no longer drawn as one, CLUSTER_MAX_ZOOM + 1 if none is. Throws for a cluster gone.
   */
  expansionZoom(clusterId: number): number {
    const z = Math.floor(clusterId / CLUSTER_ID_ZOOM_STRIDE);
    const key = clusterId % CLUSTER_ID_ZOOM_STRIDE;
    const members =
      Number.isInteger(clusterId) && z >= 0 && z <= CLUSTER_MAX_ZOOM
        ? this.groups(z).membersOf(key % CELL_STRIDE, Math.floor(key / CELL_STRIDE))
        : [];
    if (members.reduce((count, member) => count + member.cell.count, 0) < 2) throw new Error(`no cluster ${clusterId}`);
    let cells = members.map(({ cx, cy }): [number, number] => [cx, cy]);
    for (let zz = z + 1; zz <= CLUSTER_MAX_ZOOM; zz++) {
      const groups = this.groups(zz);
      const children = cells.flatMap(([cx, cy]) =>
        [
          [cx * 2, cy * 2],
          [cx * 2 + 1, cy * 2],
          [cx * 2, cy * 2 + 1],
          [cx * 2 + 1, cy * 2 + 1],
        ].filter((child): child is [number, number] => this.cellAt(zz, child[0]!, child[1]!) !== undefined),
      );
      const owners = new Set(children.map(([x, y]) => groups.ownerOf(x, y).join(',')));
      if (owners.size !== 1) return zz;
      cells = children;
    }
    return CLUSTER_MAX_ZOOM + 1;
  }

  private clear(): void {
    this.levels = Array.from({ length: CLUSTER_MAX_ZOOM + 1 }, () => new Map<number, ClusterTile>());
  }

  private cellAt(z: number, cx: number, cy: number): Cell | undefined {
    const cells = 2 ** z * CLUSTER_CELLS_PER_TILE;
    if (cx < 0 || cy < 0 || cx >= cells || cy >= cells) return undefined;
    const tile = this.levels[z]?.get(
      Math.floor(cy / CLUSTER_CELLS_PER_TILE) * 2 ** z + Math.floor(cx / CLUSTER_CELLS_PER_TILE),
    );
    return tile?.cells.get(cy * CELL_STRIDE + cx);
  }

  /** Counts the user in (sign 1) or out (sign -1) of its cell of zoom z. */
  private placeCell(z: number, id: number, point: GridPoint, sign: 1 | -1): void {
    const cells = 2 ** z * CLUSTER_CELLS_PER_TILE;
    this.placeAt(z, id, point, gridOf(point.x, cells), gridOf(point.y, cells), sign);
  }

  /** Counts the user in or out of cell cx/cy of zoom z (the SOS set of its tile when in SOS). */
  private placeAt(z: number, id: number, point: GridPoint, cx: number, cy: number, sign: 1 | -1): void {
    const tileKey = Math.floor(cy / CLUSTER_CELLS_PER_TILE) * 2 ** z + Math.floor(cx / CLUSTER_CELLS_PER_TILE);
    const level = this.levels[z]!;
    const tile = sign > 0 ? this.tileOfCell(z, cx, cy) : level.get(tileKey);
    if (!tile) return;
    if (point.sos) {
      if (sign > 0) tile.alone.add(id);
      else tile.alone.delete(id);
    } else {
      const cellKey = cy * CELL_STRIDE + cx;
      const cell = cellOf(tile, cellKey);
      cell.count += sign;
      cell.sumX += sign * point.x;
      cell.sumY += sign * point.y;
      cell.sumId += sign * id;
      if (cell.count <= 0) tile.cells.delete(cellKey);
    }
    if (tile.cells.size === 0 && tile.alone.size === 0) level.delete(tileKey);
  }

  /** The tile of zoom z holding cell cx/cy, made when there is none. */
  private tileOfCell(z: number, cx: number, cy: number): ClusterTile {
    const tileKey = Math.floor(cy / CLUSTER_CELLS_PER_TILE) * 2 ** z + Math.floor(cx / CLUSTER_CELLS_PER_TILE);
    const level = this.levels[z]!;
    let tile = level.get(tileKey);
    if (!tile) {
      tile = { cells: new Map(), alone: new Set() };
      level.set(tileKey, tile);
    }
    return tile;
  }
}

/** A tile's cell, made empty when there is none. */
function cellOf(tile: ClusterTile, cellKey: number): Cell {
  let cell = tile.cells.get(cellKey);
  if (!cell) {
    cell = { count: 0, sumX: 0, sumY: 0, sumId: 0 };
    tile.cells.set(cellKey, cell);
  }
  return cell;
}
