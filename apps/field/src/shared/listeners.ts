/** A set of change listeners, for the `subscribe` of useSyncExternalStore. */
export class Listeners {
  private readonly set = new Set<() => void>();

  subscribe = (listener: () => void): (() => void) => {
    this.set.add(listener);
    return () => this.set.delete(listener);
  };

  notify(): void {
    for (const listener of this.set) listener();
  }
}
