/** An axis-aligned box: x is longitude, y latitude (degrees), as the fences' bounding boxes are kept. */
export interface Box {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

/** Children per node: 16 keeps the tree shallow (10,000 fences: 3 levels) and a node's scan short. */
const NODE_SIZE = 16;

/**
 * A static R-tree packed by Sort-Tile-Recursive (Leutenegger et al. 1997): built once from every
 * box of an enterprise's fences, queried per fix, rebuilt when a fence changes (rare next to
 * fixes). Boxes live in one Float64Array (4 numbers per node, leaves first, then each level above),
 * so a query allocates only its result. Written here rather than taken from a package because the
 * static case is this small and the server then carries no new dependency.
 */
export class PackedRTree<T> {
  private readonly boxes: Float64Array;
  /** For a leaf slot, the index into `items`; for an inner node, the slot of its first child. */
  private readonly refs: Int32Array;
  /** Where each level begins in the slots; the root is the one slot of the last level. */
  private readonly levels: number[] = [];
  private readonly items: T[];
  /** The nodes still to visit; kept between searches (a search runs to its end synchronously). */
  private readonly stack: number[] = [];

  constructor(entries: readonly { box: Box; item: T }[]) {
    this.items = entries.map((e) => e.item);
    let total = 0;
    for (let n = entries.length; ; n = Math.ceil(n / NODE_SIZE)) {
      total += n;
      if (n <= 1) break;
    }
    this.boxes = new Float64Array(total * 4);
    this.refs = new Int32Array(total);
    const leaves = sortTileRecursive(entries.map((e, i) => ({ box: e.box, ref: i })));
    let level: { box: Box; ref: number }[] = leaves;
    let next = 0;
    for (;;) {
      this.levels.push(next);
      level.forEach((node, i) => this.put(next + i, node.box, node.ref));
      const start = next;
      next += level.length;
      if (level.length <= 1) break;
      const parents: { box: Box; ref: number }[] = [];
      for (let i = 0; i < level.length; i += NODE_SIZE) {
        parents.push({ box: union(level.slice(i, i + NODE_SIZE).map((g) => g.box)), ref: start + i });
      }
      level = parents;
    }
  }

  get size(): number {
    return this.items.length;
  }

  /** Items whose boxes hold or touch `box`, added to `found` (a caller may reuse one array). */
  search(box: Box, found: T[] = []): T[] {
    if (this.items.length === 0) return found;
    const top = this.levels.length - 1;
    const stack = this.stack;
    stack.length = 0;
    stack.push(this.levels[top] as number, top);
    while (stack.length > 0) {
      const depth = stack.pop() as number;
      const slot = stack.pop() as number;
      const b = slot * 4;
      const boxes = this.boxes;
      if (boxes[b + 2]! < box.minX || boxes[b]! > box.maxX || boxes[b + 3]! < box.minY || boxes[b + 1]! > box.maxY)
        continue;
      if (depth === 0) {
        found.push(this.items[this.refs[slot]!] as T);
        continue;
      }
      const first = this.refs[slot]!;
      const end = Math.min(first + NODE_SIZE, this.levels[depth] as number);
      for (let child = first; child < end; child += 1) stack.push(child, depth - 1);
    }
    return found;
  }

  private put(slot: number, box: Box, ref: number): void {
    this.boxes.set([box.minX, box.minY, box.maxX, box.maxY], slot * 4);
    this.refs[slot] = ref;
  }
}

function union(boxes: readonly Box[]): Box {
  const out = { minX: Infinity, minY: Infinity, maxX: -Infinity, maxY: -Infinity };
  for (const b of boxes) {
    out.minX = Math.min(out.minX, b.minX);
    out.minY = Math.min(out.minY, b.minY);
    out.maxX = Math.max(out.maxX, b.maxX);
    out.maxY = Math.max(out.maxY, b.maxY);
  }
  return out;
}

/** STR order: vertical slices by centre x, each sorted by centre y, so siblings lie near each other. */
function sortTileRecursive<E extends { box: Box }>(entries: E[]): E[] {
  const cx = (e: E) => e.box.minX + e.box.maxX;
  const cy = (e: E) => e.box.minY + e.box.maxY;
  const leaves = Math.ceil(entries.length / NODE_SIZE);
  const sliceSize = NODE_SIZE * Math.ceil(Math.sqrt(leaves));
  const byX = [...entries].sort((a, b) => cx(a) - cx(b));
  const out: E[] = [];
  for (let i = 0; i < byX.length; i += sliceSize)
    out.push(...byX.slice(i, i + sliceSize).sort((a, b) => cy(a) - cy(b)));
  return out;
}
