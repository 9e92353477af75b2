import { describe, expect, it } from 'vitest';
import { SimDevice } from '../src/device.js';
import { seededRandom } from '../src/movement.js';
import { phoneOf } from '../src/options.js';

// Issue 51: 54 unhandled alarms after 35 minutes of the demo. The demo's fleet (scripts/start.mjs:
// 20 terminals, a report every 5 s, --sos-rate 0.0002) raises a few alarms an hour: the bell stays
// readable, and each kind still shows within the first hour or two.

/** The server's defaults: heart rate outside 40-160 bpm, battery at or below 15 % (re-armed at 20 %). */
const HEART = { low: 40, high: 160 };

function demoHours(hours: number) {
  const counts = { sos: 0, heartRate: 0, lowBattery: 0 };
  for (let i = 0; i < 20; i++) {
    const phone = phoneOf('19900000000', i);
    // Seeded as fleet.ts seeds each terminal's device.
    const device = new SimDevice(
      { lat: 22.5431, lon: 114.0579 },
      3,
      seededRandom(Number(BigInt(phone) % 2_147_483_647n)),
      0.0002,
    );
    let heartOut = false;
    let batteryLow = false;
    for (let step = 0; step < (hours * 3600) / 5; step++) {
      const reading = device.step(5);
      if (reading.sos) counts.sos += 1;
      const out = reading.heartRate < HEART.low || reading.heartRate > HEART.high;
      if (out && !heartOut) counts.heartRate += 1;
      heartOut = out;
      if (reading.battery <= 15 && !batteryLow) counts.lowBattery += 1;
      if (reading.battery <= 15) batteryLow = true;
      else if (reading.battery >= 20) batteryLow = false;
    }
  }
  return counts;
}

describe("the demo fleet's alarms", () => {
  it('raise a handful an hour, every kind still seen', () => {
    const counts = demoHours(4);
    const perHour = (counts.sos + counts.heartRate + counts.lowBattery) / 4;
    expect(perHour).toBeLessThanOrEqual(12);
    expect(counts.sos).toBeGreaterThan(0);
    expect(counts.heartRate).toBeGreaterThan(0);
    expect(counts.lowBattery).toBeGreaterThan(0);
    expect(counts.sos / 4).toBeLessThanOrEqual(5);
  });
});
