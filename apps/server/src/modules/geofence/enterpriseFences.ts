import { setImmediate as nextTurn } from 'node:timers/promises';
import type { ZoneShape } from '@intercom/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { organsOf, subtreeIds } from '../organ/index.js';
import { zoneShapeOf } from '../../core/zoneColumns.js';
import { geofencesOf, targetsOfEnterprise, type GeofenceRecord } from './geofenceRepository.js';
import { PackedRTree, type Box } from './spatialIndex.js';

/** A fence ready for the per-fix check. */
export interface CompiledFence {
  GF_ID: number;
  Name: string;
  enter: boolean;
  exit: boolean;
  /** 0: no dwell alarm. */
  dwellMs: number;
  /** Null: every user of the enterprise. Else the users named and those of the departments named (with their sub-departments). */
  users: ReadonlySet<number> | null;
  departments: ReadonlySet<number> | null;
  shape: ZoneShape;
}

export function appliesTo(fence: CompiledFence, U_ID: number, department: number | null): boolean {
  if (!fence.users && !fence.departments) return true;
  return (fence.users?.has(U_ID) ?? false) || (department !== null && (fence.departments?.has(department) ?? false));
}

/**
 * Fences compiled in one event-loop turn: a 500-point polygon takes about 0.3 ms to parse and compile,
 * so an enterprise at the cap (500 by default) would otherwise hold the loop for a few hundred ms.
 */
const COMPILED_PER_TURN = 25;

/** One enterprise's fences: the index by bounding box and the fences by id. */
export interface FenceSet {
  index: PackedRTree<CompiledFence>;
  byId: ReadonlyMap<number, CompiledFence>;
}

export async function loadFenceSet(db: Kysely<DB>, E_ID: number): Promise<FenceSet> {
  const records = await geofencesOf(db, E_ID);
  if (records.length === 0) return { index: new PackedRTree([]), byId: new Map() };
  const [targets, organs] = await Promise.all([targetsOfEnterprise(db, E_ID), organsOf(db, E_ID)]);
  const byId = new Map<number, CompiledFence>();
  const entries: { box: Box; item: CompiledFence }[] = [];
  for (const [i, record] of records.entries()) {
    if (i > 0 && i % COMPILED_PER_TURN === 0) await nextTurn();
    const own = targets.get(record.GF_ID);
    const departments = own?.DepartmentIds.length
      ? new Set(own.DepartmentIds.flatMap((id) => subtreeIds(organs, id)))
      : null;
    const fence = compile(record, own?.UserIds.length ? new Set(own.UserIds) : null, departments);
    byId.set(fence.GF_ID, fence);
    for (const box of fence.shape.boxes) entries.push({ box, item: fence });
  }
  return { index: new PackedRTree(entries), byId };
}

function compile(
  record: GeofenceRecord,
  users: ReadonlySet<number> | null,
  departments: ReadonlySet<number> | null,
): CompiledFence {
  return {
    GF_ID: record.GF_ID,
    Name: record.Name,
    enter: record.Enter !== 0,
    exit: record.Exit !== 0,
    dwellMs: record.DwellMinutes * 60_000,
    users,
    departments,
    shape: zoneShapeOf(record),
  };
}

/**
 * Each enterprise's FenceSet, loaded on its first fix and kept until a fence of it changes (the
 * `geofencesChanged` event, on every instance) or `maxAgeMs` passes (a department moved: the
 * fences of its parent now cover it). Fixes arriving while it loads wait for the one load.
 */
export class FenceSets {
  private readonly sets = new Map<number, { set: Promise<FenceSet>; at: number; loaded?: FenceSet }>();

  constructor(
    private readonly db: Kysely<DB>,
    private readonly maxAgeMs: number,
  ) {}

  /** The enterprise's fences, loaded again when older than `maxAgeMs` at `now` (the watcher's clock). */
  of(E_ID: number, now: number): Promise<FenceSet> {
    const cached = this.sets.get(E_ID);
    if (cached && now - cached.at < this.maxAgeMs) return cached.set;
    const set = loadFenceSet(this.db, E_ID);
    const entry: { set: Promise<FenceSet>; at: number; loaded?: FenceSet } = { set, at: now };
    this.sets.set(E_ID, entry);
    set.then(
      (loaded) => (entry.loaded = loaded),
      () => {
        if (this.sets.get(E_ID) === entry) this.sets.delete(E_ID);
      },
    );
    return set;
  }

  /** The enterprise's fences when they are loaded and fresh, without waiting: the per-fix fast path. */
  peek(E_ID: number, now: number): FenceSet | undefined {
    const cached = this.sets.get(E_ID);
    return cached && now - cached.at < this.maxAgeMs ? cached.loaded : undefined;
  }

  changed(E_ID: number): void {
    this.sets.delete(E_ID);
  }
}
