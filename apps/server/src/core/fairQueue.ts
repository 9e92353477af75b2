/** What {@link FairQueue.add} did: refused, admitted, or admitted in place of another tenant's newest item. */
export type Admission<T> = { admitted: false } | { admitted: true; evicted?: { tenant: number; item: T } };

/**
 * Waiting items of many tenants, served round robin: each turn takes the oldest item of the next
 * tenant, so a tenant with a long queue delays another by at most one item per round.
 *
 * Bounded to `capacity` items in all. A tenant alone may fill it; when it is full, a newcomer takes
 * the place of the newest item of the tenant holding the most, as long as that tenant would still
 * hold more than the newcomer; otherwise the newcomer is refused. So when several tenants want more
 * than there is room for, each ends up with an equal share (give or take one), and what is dropped
 * is always the most recent wish of the tenant that asked most.
 */
export class FairQueue<T> {
  /** Per tenant, its items oldest first; the map's order is the round-robin ring. */
  private readonly queues = new Map<number, Set<T>>();
  private count = 0;

  constructor(readonly capacity: number) {}

  get size(): number {
    return this.count;
  }

  sizeOf(tenant: number): number {
    return this.queues.get(tenant)?.size ?? 0;
  }

  has(tenant: number, item: T): boolean {
    return this.queues.get(tenant)?.has(item) ?? false;
  }

  add(tenant: number, item: T): Admission<T> {
    const own = this.sizeOf(tenant);
    let evicted: { tenant: number; item: T } | undefined;
    if (this.count >= this.capacity) {
      const victim = this.longestOtherThan(tenant);
      if (!victim || victim.queue.size <= own + 1) return { admitted: false };
      let newest: T | undefined;
      for (const candidate of victim.queue) newest = candidate;
      this.remove(victim.tenant, newest as T);
      evicted = { tenant: victim.tenant, item: newest as T };
    }
    const queue = this.queues.get(tenant);
    if (queue) queue.add(item);
    else this.queues.set(tenant, new Set([item]));
    this.count++;
    return evicted ? { admitted: true, evicted } : { admitted: true };
  }

  remove(tenant: number, item: T): boolean {
    const queue = this.queues.get(tenant);
    if (!queue?.delete(item)) return false;
    this.count--;
    if (queue.size === 0) this.queues.delete(tenant);
    return true;
  }

  /** The next item in round-robin order; its tenant moves to the back of the ring. */
  shift(): { tenant: number; item: T } | undefined {
    const first = this.queues.entries().next();
    if (first.done) return undefined;
    const [tenant, queue] = first.value;
    const item = queue.values().next().value as T;
    queue.delete(item);
    this.count--;
    this.queues.delete(tenant);
    if (queue.size > 0) this.queues.set(tenant, queue);
    return { tenant, item };
  }

  private longestOtherThan(tenant: number): { tenant: number; queue: Set<T> } | undefined {
    let longest: { tenant: number; queue: Set<T> } | undefined;
    for (const [other, queue] of this.queues) {
      if (other !== tenant && (!longest || queue.size > longest.queue.size)) longest = { tenant: other, queue };
    }
    return longest;
  }
}
