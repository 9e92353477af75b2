/**
 * At most `limit` first logins of the fleet at once: a terminal connects when its turn comes and
 * gives the turn on once its login is answered (or given up). A password login costs the server one
 * scrypt run (about 0.6 s of a core and 128 MiB; seconds when several share a small machine): 20
 * sent together took 50 s to be answered on 2 busy cores, past the terminals' timeout, and each
 * login given up was a scrypt run wasted. Waiting before connecting, not after: the server closes
 * a socket that sends no login within 10 s.
 */
export class LoginGate {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  async run<T>(turn: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.running += 1;
    try {
      return await turn();
    } finally {
      this.running -= 1;
      this.waiting.shift()?.();
    }
  }
}
