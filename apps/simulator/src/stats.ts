/** Counters of the whole fleet, printed now and then. */
export class FleetStats {
  connected = 0;
  loggedIn = 0;
  fixes = 0;
  acked = 0;
  /** `positions` messages acknowledged: backlogs sent after a tunnel. */
  batches = 0;
  errors = 0;
  sos = 0;
  reconnects = 0;
  /** Push-to-talk: bursts spoken, frames sent and heard, floor requests answered busy. */
  bursts = 0;
  framesSent = 0;
  framesHeard = 0;
  busy = 0;
  /** Emergency calls the server opened on this fleet's SOS (each terminal speaks in its own). */
  emergencyCalls = 0;
  /** Lone worker: checkInDue received, check-ins acknowledged, check-ins let pass on purpose. */
  checkInsDue = 0;
  checkIns = 0;
  checkInsMissed = 0;
  readonly errorCodes = new Map<string, number>();

  error(code: string): void {
    this.errors += 1;
    this.errorCodes.set(code, (this.errorCodes.get(code) ?? 0) + 1);
  }

  line(): string {
    const codes = [...this.errorCodes].map(([code, n]) => `${code}:${n}`).join(' ');
    return `online ${this.loggedIn}/${this.connected} sockets, fixes ${this.acked}/${this.fixes} acked${this.batches ? ` (${this.batches} backlog batches)` : ''}, SOS ${this.sos}, errors ${this.errors}${codes ? ` (${codes})` : ''}, reconnects ${this.reconnects}${this.checkInLine()}${this.talkLine()}`;
  }

  private checkInLine(): string {
    if (this.checkInsDue === 0) return '';
    return `, check-ins ${this.checkIns}/${this.checkInsDue} (missed on purpose ${this.checkInsMissed})`;
  }

  private talkLine(): string {
    if (this.bursts + this.framesHeard + this.busy === 0) return '';
    const calls = this.emergencyCalls ? `, ${this.emergencyCalls} emergency calls` : '';
    return `, talk: ${this.bursts} bursts, ${this.framesSent} frames sent, ${this.framesHeard} heard, ${this.busy} busy${calls}`;
  }
}
