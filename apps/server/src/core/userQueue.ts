/**
 * Work queued per user, run one after another in the order it was queued; different users run
 * independently. The fix consumers use it (geofence crossings, incident membership, alarms), so a
 * user's later fix is never decided before an earlier one. A task that fails is reported to
 * `onError` with the queue's context, and the user's next task runs all the same.
 */
export class UserQueue {
  /** Per user, the end of the work queued so far; removed when it is done and nothing followed. */
  private readonly chains = new Map<number, Promise<void>>();

  constructor(
    private readonly onError: (error: unknown, context: string) => void,
    private readonly context: string,
  ) {}

  /** Whether the user has work queued or running. */
  has(U_ID: number): boolean {
    return this.chains.has(U_ID);
  }

  get size(): number {
    return this.chains.size;
  }

  /**
   * Runs `task` after the user's earlier work; the promise settles (never rejects) when it is done.
   * `context` names the task in an error report.
   */
  run(U_ID: number, task: () => unknown, context = this.context): Promise<void> {
    const next = (this.chains.get(U_ID) ?? Promise.resolve()).then(task).then(
      () => undefined,
      (error: unknown) => {
        this.onError(error, context);
      },
    );
    this.chains.set(U_ID, next);
    void next.finally(() => {
      if (this.chains.get(U_ID) === next) this.chains.delete(U_ID);
    });
    return next;
  }

  /** Every task queued now, and those they queue meanwhile. */
  pending(): Promise<void>[] {
    return [...this.chains.values()];
  }
}
