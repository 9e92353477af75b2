// Geodesy: ours against @turf/* and cheap-ruler (issue 53), for bench/geofence.ts. The same fences
// the watcher bench builds, plus 500-point polygons (bench/geofenceTenantCost.ts's size, the most a
// Save allows), each probed at points a spatial index would hand the shape test: half uniform in the
// fence's box grown by a quarter each side, half within 2 m of its edge. Per operation the geofence,
// safety and incident rules run per fix: inside a circle (great-circle distance against the radius),
// inside a polygon, and a polygon's distance to its nearest edge (an incident's depth, a geofence's
// exit margin). CPU time, samples interleaved across the contenders, median; then whether they agree.
import fs from 'node:fs';
import { distanceMeters, zoneShape, type ZoneShape } from '@intercom/contract';
import { booleanPointInPolygon } from '@turf/boolean-point-in-polygon';
import { distance as turfDistance } from '@turf/distance';
import { polygon as turfPolygon } from '@turf/helpers';
import CheapRuler from 'cheap-ruler';

/** A fence as bench/geofence.ts writes it into the `geofence` table. */
export interface FenceRow {
  Kind: string;
  CenterLat: number | null;
  CenterLon: number | null;
  Radius: number | null;
  Points: string;
}

export interface CompareOptions {
  /** CPU milliseconds one sample of one contender runs for. */
  sampleMs: number;
  /** Samples per contender; the median is reported. */
  samples: number;
  probesPerFence: number;
  /** How many 500-point polygons to add. */
  bigPolygons: number;
  /** Where to centre them: `{ lat, lon, dLat, dLon }` in degrees. */
  area: { lat: number; lon: number; dLat: number; dLon: number };
}

type Coord = [number, number];
/** A fix: `lat`/`lon` for ours, `[lon, lat]` (made once per fix) for the libraries. */
interface Probe {
  lat: number;
  lon: number;
  coord: Coord;
}
interface Circle {
  shape: ZoneShape;
  lat: number;
  lon: number;
  radius: number;
  center: Coord;
  /** cheap-ruler's scale at the fence's latitude, made once with the fence as a zone would be. */
  ruler: CheapRuler;
  probes: Probe[];
}
interface Ring {
  shape: ZoneShape;
  /** The closed ring as `[lon, lat]`, what turf and cheap-ruler take. */
  line: Coord[];
  feature: ReturnType<typeof turfPolygon>;
  ruler: CheapRuler;
  probes: Probe[];
}

const METRES = { units: 'meters' } as const;
const METRES_PER_DEGREE = 111_195;

function probe(lat: number, lon: number): Probe {
  return { lat, lon, coord: [lon, lat] };
}

/** A probe within 2 m of `[lat, lon]`, in any direction. */
function jitter(lat: number, lon: number, random: () => number): Probe {
  const metres = random() * 2;
  const angle = random() * 2 * Math.PI;
  const dLat = (metres * Math.sin(angle)) / METRES_PER_DEGREE;
  const dLon = (metres * Math.cos(angle)) / (METRES_PER_DEGREE * Math.cos((lat * Math.PI) / 180));
  return probe(lat + dLat, lon + dLon);
}

function boxProbe(shape: ZoneShape, random: () => number): Probe {
  const box = shape.boxes[0]!;
  const w = box.maxX - box.minX;
  const h = box.maxY - box.minY;
  return probe(box.minY - h / 4 + random() * h * 1.5, box.minX - w / 4 + random() * w * 1.5);
}

function circleOf(lat: number, lon: number, radius: number, n: number, random: () => number): Circle {
  const shape = zoneShape({ Kind: 'circle', CenterLat: lat, CenterLon: lon, Radius: radius, Points: null });
  const probes: Probe[] = [];
  for (let k = 0; k < n; k++) {
    if (k % 2 === 0) probes.push(boxProbe(shape, random));
    else {
      // On the circle as the sphere measures it, then up to 2 m off.
      const angle = random() * 2 * Math.PI;
      const r = radius / METRES_PER_DEGREE;
      probes.push(
        jitter(lat + r * Math.sin(angle), lon + (r * Math.cos(angle)) / Math.cos((lat * Math.PI) / 180), random),
      );
    }
  }
  return { shape, lat, lon, radius, center: [lon, lat], ruler: new CheapRuler(lat, 'meters'), probes };
}

function ringOf(points: [number, number][], n: number, random: () => number): Ring {
  const shape = zoneShape({ Kind: 'polygon', CenterLat: null, CenterLon: null, Radius: null, Points: points });
  const line = points.map(([lat, lon]): Coord => [lon, lat]);
  line.push(line[0]!);
  const probes: Probe[] = [];
  for (let k = 0; k < n; k++) {
    if (k % 2 === 0) probes.push(boxProbe(shape, random));
    else {
      const i = Math.floor(random() * points.length);
      const [aLat, aLon] = points[i]!;
      const [bLat, bLon] = points[(i + 1) % points.length]!;
      const t = random();
      probes.push(jitter(aLat + t * (bLat - aLat), aLon + t * (bLon - aLon), random));
    }
  }
  return {
    shape,
    line,
    feature: turfPolygon([line]),
    ruler: new CheapRuler(points[0]![0], 'meters'),
    probes,
  };
}

/** 500 corners around a centre, `radius` metres, a little uneven (bench/geofenceTenantCost.ts's ring). */
function bigRing(lat: number, lon: number, radius: number, seed: number): [number, number][] {
  return Array.from({ length: 500 }, (_, k): [number, number] => {
    const angle = (2 * Math.PI * k) / 500;
    const r = (radius * (1 + 0.05 * Math.sin(angle * 7 + seed))) / METRES_PER_DEGREE;
    return [lat + r * Math.sin(angle), lon + (r * Math.cos(angle)) / Math.cos((lat * Math.PI) / 180)];
  });
}

/** One pass over every (fence, probe) pair; returns how many were inside, so nothing is optimised away. */
type Pass = () => number;

function passOver<T extends { probes: Probe[] }>(fences: readonly T[], test: (fence: T, p: Probe) => boolean): Pass {
  return () => {
    let inside = 0;
    for (const fence of fences) for (const p of fence.probes) if (test(fence, p)) inside++;
    return inside;
  };
}

function sumOver<T extends { probes: Probe[] }>(fences: readonly T[], measure: (fence: T, p: Probe) => number): Pass {
  return () => {
    let sum = 0;
    for (const fence of fences) for (const p of fence.probes) sum += measure(fence, p);
    return sum;
  };
}

const cpuMicros = () => {
  const used = process.cpuUsage();
  return used.user + used.system;
};

let sink = 0;

/** ns of CPU per operation (median of the samples) and operations per CPU second, per contender. */
function race(contenders: Record<string, Pass>, ops: number, options: CompareOptions) {
  const names = Object.keys(contenders);
  const reps: Record<string, number> = {};
  for (const name of names) {
    const pass = contenders[name]!;
    for (let w = 0; w < 3; w++) sink += pass();
    const started = cpuMicros();
    let passes = 0;
    while (cpuMicros() - started < 20_000 || passes < 1) {
      sink += pass();
      passes++;
    }
    reps[name] = Math.max(1, Math.round((passes * options.sampleMs * 1000) / (cpuMicros() - started)));
  }
  const samples: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
  for (let s = 0; s < options.samples; s++) {
    for (const name of names) {
      const pass = contenders[name]!;
      const n = reps[name]!;
      const started = cpuMicros();
      for (let r = 0; r < n; r++) sink += pass();
      samples[name]!.push(((cpuMicros() - started) * 1000) / (n * ops));
    }
  }
  return Object.fromEntries(
    names.map((name) => {
      const sorted = samples[name]!.sort((a, b) => a - b);
      const ns = sorted[Math.floor(sorted.length / 2)]!;
      return [
        name,
        {
          nsPerOp: Math.round(ns * 10) / 10,
          opsPerSecond: Math.round(1e9 / ns),
          spreadNs: [Math.round(sorted[0]! * 10) / 10, Math.round(sorted.at(-1)! * 10) / 10],
        },
      ];
    }),
  );
}

interface Disagreement {
  lat: number;
  lon: number;
  ours: boolean;
  /** Our signed distance to the edge, metres (positive inside). */
  depthMetres: number;
}

/** Where `other` answers differently from ours: how many, and how far from the edge the worst one lies. */
function agreement<T extends { shape: ZoneShape; probes: Probe[] }>(
  fences: readonly T[],
  other: (fence: T, p: Probe) => boolean,
) {
  const found: Disagreement[] = [];
  let pairs = 0;
  for (const fence of fences)
    for (const p of fence.probes) {
      pairs++;
      const ours = fence.shape.inside(p.lat, p.lon);
      if (ours !== other(fence, p))
        found.push({ lat: p.lat, lon: p.lon, ours, depthMetres: fence.shape.depth(p.lat, p.lon) });
    }
  const farthest = found.reduce((m, d) => Math.max(m, Math.abs(d.depthMetres)), 0);
  return {
    pairs,
    disagreements: found.length,
    farthestFromEdgeMetres: Math.round(farthest * 1000) / 1000,
    examples: found.slice(0, 3).map((d) => ({ ...d, depthMetres: Math.round(d.depthMetres * 1000) / 1000 })),
  };
}

function version(name: string): string {
  const file = new URL(`../../node_modules/${name}/package.json`, import.meta.url);
  return (JSON.parse(fs.readFileSync(file, 'utf8')) as { version: string }).version;
}

const rulerEdge = (fence: Ring, p: Probe) =>
  fence.ruler.distance(fence.ruler.pointOnLine(fence.line, p.coord).point, p.coord);

/** Across the antimeridian (Fiji): which contender answers as a person on the ground would. */
function antimeridian() {
  const lat = -16.5;
  // A 300 m circle on 180 and a 1 km square across it, stored as the API takes them (-180..180).
  const circle = circleOf(lat, 180, 300, 0, Math.random);
  const d = 0.0045;
  const square: [number, number][] = [
    [lat - d, 180 - d],
    [lat - d, -180 + d],
    [lat + d, -180 + d],
    [lat + d, 180 - d],
  ];
  const ring = ringOf(square, 0, Math.random);
  const east = 0.0009; // about 100 m
  const cases = [
    { p: probe(lat, 180 - east), inside: true },
    { p: probe(lat, -180 + east), inside: true },
    { p: probe(lat, 179.9), inside: false },
    { p: probe(lat, -179.9), inside: false },
  ];
  const score = (test: (p: Probe) => boolean) =>
    `${cases.filter((c) => test(c.p) === c.inside).length}/${cases.length}`;
  return {
    circle: {
      ours: score((p) => circle.shape.inside(p.lat, p.lon)),
      turf: score((p) => turfDistance(circle.center, p.coord, METRES) < 300),
      cheapRuler: score((p) => circle.ruler.distance(circle.center, p.coord) < 300),
    },
    polygon: {
      ours: score((p) => ring.shape.inside(p.lat, p.lon)),
      turfAsStored: score((p) => booleanPointInPolygon(p.coord, ring.feature)),
    },
  };
}

export function compareGeodesy(rows: readonly FenceRow[], random: () => number, options: CompareOptions) {
  const n = options.probesPerFence;
  const circles = rows
    .filter((row) => row.Kind === 'circle')
    .map((row) => circleOf(row.CenterLat!, row.CenterLon!, row.Radius!, n, random));
  const rings = rows
    .filter((row) => row.Kind !== 'circle')
    .map((row) => ringOf(JSON.parse(row.Points) as [number, number][], n, random));
  const { area } = options;
  const bigRings = Array.from({ length: options.bigPolygons }, (_, i) =>
    ringOf(
      bigRing(area.lat + random() * area.dLat, area.lon + random() * area.dLon, 500 + random() * 1000, i),
      n,
      random,
    ),
  );
  const pairs = <T extends { probes: Probe[] }>(fences: readonly T[]) =>
    fences.reduce((s, f) => s + f.probes.length, 0);

  const circleInside = race(
    {
      ours: passOver(circles, (c, p) => c.shape.inside(p.lat, p.lon)),
      oursDistanceMeters: passOver(circles, (c, p) => distanceMeters(c.lat, c.lon, p.lat, p.lon) < c.radius),
      turf: passOver(circles, (c, p) => turfDistance(c.center, p.coord, METRES) < c.radius),
      cheapRuler: passOver(circles, (c, p) => c.ruler.distance(c.center, p.coord) < c.radius),
      cheapRulerPerCall: passOver(
        circles,
        (c, p) => new CheapRuler(p.lat, 'meters').distance(c.center, p.coord) < c.radius,
      ),
    },
    pairs(circles),
    options,
  );
  const polygonInside = (fences: Ring[]) =>
    race(
      {
        ours: passOver(fences, (f, p) => f.shape.inside(p.lat, p.lon)),
        turf: passOver(fences, (f, p) => booleanPointInPolygon(p.coord, f.feature)),
      },
      pairs(fences),
      options,
    );
  const edgeDistance = (fences: Ring[]) =>
    race(
      {
        ours: sumOver(fences, (f, p) => Math.abs(f.shape.depth(p.lat, p.lon))),
        cheapRuler: sumOver(fences, rulerEdge),
      },
      pairs(fences),
      options,
    );
  /** The largest difference from our distance to the edge, per metre of it (at least 1 m). */
  const edgeGap = (fences: Ring[], other: (f: Ring, p: Probe) => number) => {
    let worst = 0;
    for (const f of fences)
      for (const p of f.probes) {
        const ours = Math.abs(f.shape.depth(p.lat, p.lon));
        worst = Math.max(worst, Math.abs(ours - other(f, p)) / Math.max(ours, 1));
      }
    return Math.round(worst * 1e6) / 1e6;
  };

  const figures = {
    node: process.version,
    versions: {
      '@turf/distance': version('@turf/distance'),
      '@turf/boolean-point-in-polygon': version('@turf/boolean-point-in-polygon'),
      'cheap-ruler': version('cheap-ruler'),
    },
    inputs: {
      circles: circles.length,
      polygons8to40: rings.length,
      polygons500: bigRings.length,
      probesPerFence: n,
      sampleMs: options.sampleMs,
      samples: options.samples,
    },
    circleInside,
    polygon8to40Inside: polygonInside(rings),
    polygon500Inside: polygonInside(bigRings),
    polygon8to40EdgeDistance: edgeDistance(rings),
    polygon500EdgeDistance: edgeDistance(bigRings),
    agreement: {
      circleTurf: agreement(circles, (c, p) => turfDistance(c.center, p.coord, METRES) < c.radius),
      circleCheapRuler: agreement(circles, (c, p) => c.ruler.distance(c.center, p.coord) < c.radius),
      polygon8to40Turf: agreement(rings, (f, p) => booleanPointInPolygon(p.coord, f.feature)),
      polygon500Turf: agreement(bigRings, (f, p) => booleanPointInPolygon(p.coord, f.feature)),
      edgeDistanceLargestDifferencePerMetre: {
        cheapRuler8to40: edgeGap(rings, rulerEdge),
        cheapRuler500: edgeGap(bigRings, rulerEdge),
      },
    },
    antimeridian: antimeridian(),
    checksum: sink % 1000,
  };
  return figures;
}
