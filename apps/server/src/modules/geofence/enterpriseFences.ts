import { GeofenceKinds } from '@intercom/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { organsOf, subtreeIds } from '../organ/index.js';
import { fenceShape, type FenceShape } from './fenceShape.js';
import { geofencesOf, parsePoints, targetsOfEnterprise, type GeofenceRecord } from './geofenceRepository.js';
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
  shape: FenceShape;
}

export function appliesTo(fence: CompiledFence, U_ID: number, department: number | null): boolean {
  if (!fence.users && !fence.departments) return true;
  return (fence.users?.has(U_ID) ?? false) || (department !== null && (fence.departments?.has(department) ?? false));
}

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
  for (const record of records) {
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
  const circle = record.Kind === GeofenceKinds.circle;
  return {
    GF_ID: record.GF_ID,
    Name: record.Name,
    enter: record.Enter !== 0,
    exit: record.Exit !== 0,
    dwellMs: record.DwellMinutes * 60_000,
    users,
    departments,
    shape: fenceShape({
      Kind: record.Kind,
      CenterLat: circle ? record.CenterLat : null,
      CenterLon: circle ? record.CenterLon : null,
      Radius: circle ? record.Radius : null,
      Points: circle ? null : parsePoints(record.Points),
    }),
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

  of(E_ID: number, now = Date.now()): Promise<FenceSet> {
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
  peek(E_ID: number, now = Date.now()): FenceSet | undefined {
    const cached = this.sets.get(E_ID);
    return cached && now - cached.at < this.maxAgeMs ? cached.loaded : undefined;
  }

  changed(E_ID: number): void {
    this.sets.delete(E_ID);
  }
}
