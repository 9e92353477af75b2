import { Path, type Point, type Random } from './movement.js';

/** One report's worth of simulated readings. */
export interface Reading {
  position: Point;
  speedKmh: number;
  course: number;
  battery: number;
  signal: number;
  heartRate: number;
  sos: boolean;
}

/**
 * The body of a simulated terminal: where it is, its battery (draining, recharged when nearly
 * flat), signal strength and the wearer's heart rate (now and then out of range), and whether it
 * raises an SOS at this report.
 */
export class SimDevice {
  readonly path: Path;
  battery: number;
  signal: number;
  heartRate: number;
  private charging = false;

  constructor(
    centre: Point,
    radiusKm: number,
    private readonly random: Random,
    private readonly sosRate: number,
    /** False: it never stops at a waypoint (Path). */
    stops = true,
  ) {
    this.path = new Path(centre, radiusKm, random, stops);
    this.battery = 20 + Math.floor(random() * 80);
    this.signal = 40 + Math.floor(random() * 60);
    this.heartRate = 65 + Math.floor(random() * 25);
  }

  /** Moves `seconds` on and returns the readings at the new place. */
  step(seconds: number): Reading {
    const position = this.path.advance(seconds);
    if (this.charging) {
      this.battery = Math.min(100, this.battery + seconds / 3);
      if (this.battery >= 100) this.charging = false;
    } else {
      // A quarter percent a minute: the few that start low raise a low-battery alarm within the first
      // hour, and the bell is not flooded (each terminal again only every 6 hours).
      this.battery = Math.max(0, this.battery - seconds / 240);
      if (this.battery <= 5) this.charging = true;
    }
    this.signal = clamp(this.signal + (this.random() - 0.5) * 10, 5, 100);
    // About one spike per terminal every 7 hours at a report each 5 s (a heart-rate alarm to see, not a flood).
    const spike = this.random() < 0.0002 ? 100 : 0;
    this.heartRate =
      clamp(this.heartRate + (this.random() - 0.5) * 6 + (this.path.speedKmh > 10 ? 0.5 : -0.3), 55, 130) + spike;
    const reading = {
      position,
      speedKmh: this.path.speedKmh,
      course: this.path.course,
      battery: Math.round(this.battery),
      signal: Math.round(this.signal),
      heartRate: Math.round(this.heartRate),
      sos: this.random() < this.sosRate,
    };
    if (spike) this.heartRate -= spike;
    return reading;
  }
}

/** A device that raises one SOS, at its first report: the emergency call of a test or a demo. */
export class OneSosDevice extends SimDevice {
  private raised = false;
  override step(seconds: number): Reading {
    const reading = super.step(seconds);
    const sos = !this.raised;
    this.raised = true;
    return { ...reading, sos };
  }
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}
