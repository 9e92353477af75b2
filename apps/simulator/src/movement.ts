import { distanceMeters } from '@intercom/contract';

/** Metres per degree of latitude (SPEC.md section 9 uses 111,240). */
const METRES_PER_DEGREE = 111_240;

export interface Point {
  lat: number;
  lon: number;
}

export type Random = () => number;

/** A mulberry32 generator: the same seed gives the same fleet, which tests rely on. */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Great-circle distance in metres (the contract's geodesy, as the server measures). */
export function distanceMetres(a: Point, b: Point): number {
  return distanceMeters(a.lat, a.lon, b.lat, b.lon);
}

/** Degrees clockwise from north, from a to b. */
export function bearing(a: Point, b: Point): number {
  const rad = Math.PI / 180;
  const y = Math.sin((b.lon - a.lon) * rad) * Math.cos(b.lat * rad);
  const x =
    Math.cos(a.lat * rad) * Math.sin(b.lat * rad) -
    Math.sin(a.lat * rad) * Math.cos(b.lat * rad) * Math.cos((b.lon - a.lon) * rad);
  return (((Math.atan2(y, x) / rad) % 360) + 360) % 360;
}

/** A random point within `radiusKm` of the centre (uniform over the disc). */
export function randomPoint(centre: Point, radiusKm: number, random: Random): Point {
  const r = radiusKm * 1000 * Math.sqrt(random());
  const angle = random() * 2 * Math.PI;
  const dLat = (r * Math.cos(angle)) / METRES_PER_DEGREE;
  const dLon = (r * Math.sin(angle)) / (METRES_PER_DEGREE * Math.cos((centre.lat * Math.PI) / 180));
  return { lat: centre.lat + dLat, lon: centre.lon + dLon };
}

/** Walkers, cyclists and vehicles: km/h. */
const SPEEDS = [5, 5, 15, 30, 45];

/**
 * A terminal's path: straight legs between random waypoints inside the area, at a speed that
 * suits its kind, with a pause now and then at a waypoint (a patrol stop, a delivery) unless `stops` is false.
 */
export class Path {
  position: Point;
  speedKmh: number;
  course = 0;
  private target: Point;
  private pausedFor = 0;
  private readonly cruise: number;

  constructor(
    private readonly centre: Point,
    private readonly radiusKm: number,
    private readonly random: Random,
    private readonly stops = true,
  ) {
    this.position = randomPoint(centre, radiusKm, random);
    this.target = randomPoint(centre, radiusKm, random);
    this.cruise = SPEEDS[Math.floor(random() * SPEEDS.length)] as number;
    this.speedKmh = this.cruise;
  }

  /** Moves `seconds` along the path and returns the new position. */
  advance(seconds: number): Point {
    if (this.pausedFor > 0) {
      this.pausedFor -= seconds;
      this.speedKmh = 0;
      return this.position;
    }
    this.speedKmh = this.cruise * (0.8 + this.random() * 0.4);
    let step = (this.speedKmh / 3.6) * seconds;
    for (let legs = 0; step > 0 && legs < 10; legs++) {
      const left = distanceMetres(this.position, this.target);
      this.course = bearing(this.position, this.target);
      if (left > step) {
        const f = step / left;
        this.position = {
          lat: this.position.lat + (this.target.lat - this.position.lat) * f,
          lon: this.position.lon + (this.target.lon - this.position.lon) * f,
        };
        break;
      }
      this.position = this.target;
      step -= left;
      this.target = randomPoint(this.centre, this.radiusKm, this.random);
      if (this.stops && this.random() < 0.2) {
        this.pausedFor = 10 + this.random() * 50;
        break;
      }
    }
    return this.position;
  }
}
