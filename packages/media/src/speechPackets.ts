import fs from 'node:fs';
import { readOggOpus } from './readOggOpus.js';

/** The recorded lines under packages/media/fixtures (made by fixtures/make.sh). */
export const speechFixtures = ['unit-three', 'arrived', 'copy'] as const;
export type SpeechFixture = (typeof speechFixtures)[number];

// src/ and dist/ are both one level below the package, so the same relative path works for both.
const fixtures = new URL('../fixtures/', import.meta.url);

/** The 20 ms Opus packets (mono, 48 kHz) of a speech fixture, ready to send as audio frames. */
export function speechPackets(name: SpeechFixture): Buffer[] {
  if (!speechFixtures.includes(name)) throw new RangeError(`no speech fixture "${String(name)}"`);
  return readOggOpus(fs.readFileSync(new URL(`${name}.opus`, fixtures))).packets;
}
