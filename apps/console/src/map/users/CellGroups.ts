/** The users of one cell of a cluster zoom: their count and sums (a single user's id is the sum of ids). */
export interface Cell {
  count: number;
  /** Sums of the users' Web Mercator x and y (0-1 across the world). */
  sumX: number;
  sumY: number;
  sumId: number;
}

/** A cell by its column and row at one zoom. */
export type CellAt = (cx: number, cy: number) => Cell | undefined;

/** A cell's place in the grid and what it holds. */
export interface PlacedCell {
  cx: number;
  cy: number;
  cell: Cell;
}

const NEIGHBOURS: readonly (readonly [number, number])[] = [
  [-1, -1],
  [0, -1],
  [1, -1],
  [-1, 0],
  [1, 0],
  [-1, 1],
  [0, 1],
  [1, 1],
];

/**
 * Which cells of one cluster zoom are drawn together, decided from each cell's neighbours only, so
 * every tile comes to the same answer about a cell near its edge and a move changes the groups of
 * the cells about it alone. Cells are compared by count, then by place (the upper left first):
 * - a cell is a *root* when no heavier cell's users are within `radiusPx` of its own (means to means);
 * - a cell that is not a root joins the heaviest root within reach, if there is one, and is otherwise
 *   drawn on its own.
 * So users a few pixels apart on either side of a cell's edge still form one cluster, as they would
 * with a radius around each point, while the grid stays changeable in place (UserTileIndex). The
 * cells must be at least `radiusPx` wide: everything within reach is then a neighbour.
 */
export class CellGroups {
  private readonly roots = new Map<number, boolean>();
  private readonly scale: number;

  /**
   * @param cellAt the cells of the zoom
   * @param zoom the zoom (a mean's distance in pixels is its distance in Mercator × 2^zoom × 512)
   * @param radiusPx users' means closer than this are drawn together
   * @param stride cells across the world's grid keys (a cell's key is cy × stride + cx)
   */
  constructor(
    private readonly cellAt: CellAt,
    zoom: number,
    private readonly radiusPx: number,
    private readonly stride: number,
  ) {
    this.scale = 2 ** zoom * 512;
  }

  /** The cell whose group holds cx/cy (the cell itself when it is a root or drawn alone). */
  ownerOf(cx: number, cy: number): [number, number] {
    if (this.isRoot(cx, cy)) return [cx, cy];
    const cell = this.cellAt(cx, cy)!;
    let owner: [number, number] = [cx, cy];
    let ownerCell: Cell | undefined;
    for (const [dx, dy] of NEIGHBOURS) {
      const other = this.cellAt(cx + dx, cy + dy);
      if (!other || !this.near(cell, other) || !this.isRoot(cx + dx, cy + dy)) continue;
      if (!ownerCell || this.heavier(other, cx + dx, cy + dy, ownerCell, owner[0], owner[1])) {
        owner = [cx + dx, cy + dy];
        ownerCell = other;
      }
    }
    return owner;
  }

  /** The cells drawn with cx/cy when it owns its group (itself first); empty when another cell owns it. */
  membersOf(cx: number, cy: number): PlacedCell[] {
    const cell = this.cellAt(cx, cy);
    if (!cell || !this.owns(cx, cy, cx, cy)) return [];
    const members: PlacedCell[] = [{ cx, cy, cell }];
    if (!this.isRoot(cx, cy)) return members;
    for (const [dx, dy] of NEIGHBOURS) {
      const other = this.cellAt(cx + dx, cy + dy);
      if (other && this.owns(cx, cy, cx + dx, cy + dy)) members.push({ cx: cx + dx, cy: cy + dy, cell: other });
    }
    return members;
  }

  private owns(ox: number, oy: number, cx: number, cy: number): boolean {
    const [x, y] = this.ownerOf(cx, cy);
    return x === ox && y === oy;
  }

  private isRoot(cx: number, cy: number): boolean {
    const key = cy * this.stride + cx;
    const known = this.roots.get(key);
    if (known !== undefined) return known;
    const cell = this.cellAt(cx, cy);
    let root = cell !== undefined;
    for (const [dx, dy] of NEIGHBOURS) {
      if (!cell || !root) break;
      const other = this.cellAt(cx + dx, cy + dy);
      if (other && this.near(cell, other) && this.heavier(other, cx + dx, cy + dy, cell, cx, cy)) root = false;
    }
    this.roots.set(key, root);
    return root;
  }

  private near(a: Cell, b: Cell): boolean {
    const dx = (a.sumX / a.count - b.sumX / b.count) * this.scale;
    const dy = (a.sumY / a.count - b.sumY / b.count) * this.scale;
    return dx * dx + dy * dy <= this.radiusPx * this.radiusPx;
  }

  /** a (at ax/ay) before b (at bx/by): more users, or as many and higher up, or as high and further left. */
  private heavier(a: Cell, ax: number, ay: number, b: Cell, bx: number, by: number): boolean {
    if (a.count !== b.count) return a.count > b.count;
    return ay !== by ? ay < by : ax < bx;
  }
}
