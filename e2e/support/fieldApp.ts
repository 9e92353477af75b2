import path from 'node:path';
import Database from 'better-sqlite3';
import type { Page } from 'playwright-core';
import { expect, inject } from 'vitest';
import { TERMINAL_PASSWORD } from './terminal.js';
import { fieldText, type Language } from './texts.js';

/** A phone's screen (the screenshots are taken at this size). */
export const PHONE = { width: 390, height: 844 } as const;

/** Where the test's phone starts: Shenzhen, as the simulated fleet. */
export const START = { latitude: 22.5431, longitude: 114.0579 } as const;

/**
 * Opens the field app and signs in with the terminal user's phone, by the fields' names in the
 * page's language (English: the fixed names `Phone`, `Password`, `Sign in`).
 */
export async function signInField(
  page: Page,
  phone: string,
  password = TERMINAL_PASSWORD,
  language: Language = 'en',
): Promise<void> {
  const label = (key: string) => fieldText(language, 'field', `signIn.${key}`);
  await page.goto(new URL('/field', inject('baseUrl')).href);
  await page.getByLabel(label('phone')).fill(phone);
  await page.getByLabel(label('password')).fill(password);
  await page.getByRole('button', { name: label('submit') }).click();
}

/** The running server's SQLite database (WAL: the server and a test may use it at once). */
export function withDatabase<T>(use: (db: Database.Database) => T): T {
  const db = new Database(path.join(inject('dataDir'), 'intercom.sqlite'), { timeout: 10_000 });
  try {
    return use(db);
  } finally {
    db.close();
  }
}

/** The stored fix times of a user from `since` on, oldest first. */
export function historyTimes(uid: number, since: number): number[] {
  return withDatabase((db) =>
    (
      db
        .prepare('SELECT H_Time FROM location_history WHERE U_ID = ? AND H_Time >= ? ORDER BY H_Time')
        .all(uid, since) as {
        H_Time: number;
      }[]
    ).map((row) => row.H_Time),
  );
}

/** The user's alarms of a type (`ManDown`, `SOS`) raised from `since` on. */
export function alarmsOf(uid: number, type: string, since: number): number[] {
  return withDatabase((db) =>
    (
      db
        .prepare('SELECT N_ID FROM notification WHERE U_ID = ? AND NType = ? AND CreatedAt >= ?')
        .all(uid, type, since) as {
        N_ID: number;
      }[]
    ).map((row) => row.N_ID),
  );
}

/** Makes a check-in of the user due now, as the server would have scheduled it (safety_state). */
export function makeCheckInDue(uid: number): void {
  withDatabase((db) => {
    const { E_ID } = db.prepare('SELECT E_ID FROM terminal_user WHERE UserID = ?').get(uid) as { E_ID: number };
    const now = Date.now();
    db.prepare('DELETE FROM safety_state WHERE U_ID = ?').run(uid);
    db.prepare('INSERT INTO safety_state (U_ID, E_ID, DueAt, DeadlineAt) VALUES (?, ?, ?, ?)').run(
      uid,
      E_ID,
      now - 1000,
      now + 4 * 60_000,
    );
  });
}

/** A terminal user with a GPS parameter (`GPSConfig`), made through the API; returns its id. */
export async function createFieldUser(token: string, name: string, phone: string, gpsConfig = ''): Promise<number> {
  const response = await fetch(new URL('/api/UserInfo/Save', inject('baseUrl')), {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}` },
    body: new URLSearchParams({
      UserID: '0',
      UserName: name,
      MobilePhone: phone,
      Password: TERMINAL_PASSWORD,
      GPSConfig: gpsConfig,
    }),
  });
  const answer = (await response.json()) as {
    BaseResult: { Code: number; Message: string };
    BaseData?: { UserID: number };
  };
  expect(answer.BaseResult.Code, `create ${name}: ${answer.BaseResult.Message}`).toBe(8888);
  return answer.BaseData!.UserID;
}

/**
 * Plays a fall to the page's DeviceMotion listeners in real time (50 Hz): walking upright, 360 ms
 * of free fall, an impact, then lying flat and still for `stillMs`.
 */
export async function playFall(page: Page, stillMs = 4500): Promise<void> {
  await page.evaluate(async (still) => {
    const G = 9.80665;
    const phases: [number, (t: number) => [number, number, number]][] = [
      [1200, (t) => [0, G * (1 + 0.3 * Math.sin(t / 90)), 0]],
      [360, () => [0, 0.08 * G, 0]],
      [60, () => [0, 0, 4.5 * G]],
      [400, (t) => [0, 0, G * (1 + 0.5 * Math.sin(t / 30) * Math.exp(-t / 150))]],
      [still, () => [0.02, 0.01, G]],
    ];
    for (const [ms, acceleration] of phases) {
      const start = performance.now();
      while (performance.now() - start < ms) {
        const [x, y, z] = acceleration(performance.now() - start);
        window.dispatchEvent(
          new DeviceMotionEvent('devicemotion', { accelerationIncludingGravity: { x, y, z }, interval: 20 }),
        );
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
  }, stillMs);
}
