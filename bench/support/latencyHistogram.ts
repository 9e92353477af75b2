/** Latencies in 0.1 ms buckets up to 10 s (later ones count as 10 s), mergeable across processes. */
export class LatencyHistogram {
  private readonly buckets = new Uint32Array(100_001);
  count = 0;

  add(ms: number): void {
    const i = Math.max(0, Math.min(100_000, Math.round(ms * 10)));
    this.buckets[i] = (this.buckets[i] as number) + 1;
    this.count += 1;
  }

  /** Sparse: [bucket, count] pairs. */
  toJSON(): [number, number][] {
    const pairs: [number, number][] = [];
    this.buckets.forEach((n, i) => {
      if (n > 0) pairs.push([i, n]);
    });
    return pairs;
  }

  mergePairs(pairs: [number, number][]): void {
    for (const [i, n] of pairs) {
      this.buckets[i] = (this.buckets[i] as number) + n;
      this.count += n;
    }
  }

  percentile(p: number): number {
    const target = Math.ceil((p / 100) * this.count);
    let seen = 0;
    for (let i = 0; i < this.buckets.length; i++) {
      seen += this.buckets[i] as number;
      if (seen >= target && seen > 0) return i / 10;
    }
    return 0;
  }
}
