import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, inject, test } from 'vitest';
import { adminCredentials } from '../support/accounts.js';
import { tokenOf } from '../support/apiLogin.js';
import { useBrowserPerFile } from '../support/browser.js';
import { clickWhenStill, nameEndingWith, openSignedIn } from '../support/console.js';
import { speechBurst } from '../support/speech.js';
import { en } from '../support/texts.js';

const browser = useBrowserPerFile();

/** Names carry a stamp so they cannot meet what other files of the run create on the shared server. */
const stamp = String(Date.now()).slice(-6);
const speakerA = `Rec speaker A ${stamp}`;
const speakerB = `Rec speaker B ${stamp}`;
const channelA = `Rec A ${stamp}`;
const channelB = `Rec B ${stamp}`;

// ---- set-up through the API and the server's database ----

interface Envelope<T> {
  BaseResult: { Code: number; Message: string };
  BaseData?: T;
}

async function post<T>(token: string, route: string, body: Record<string, unknown>): Promise<T> {
  const response = await fetch(new URL(route, inject('baseUrl')), {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as Envelope<T>;
  expect(answer.BaseResult.Code, `${route}: ${answer.BaseResult.Message}`).toBe(8888);
  return answer.BaseData as T;
}

interface Seeded {
  E_ID: number;
  userA: number;
  userB: number;
  cidA: number;
  cidB: number;
}

/** Two terminal users and two channels, made the way the console makes them. */
async function seedDirectory(token: string): Promise<Seeded> {
  const phone = (n: number) => `137${stamp}${String(n).padStart(2, '0')}`;
  const userA = await post<{ UserID: number; E_ID: number }>(token, '/api/UserInfo/Save', {
    UserName: speakerA,
    MobilePhone: phone(1),
    Password: 'Term-Pass-26',
  });
  const userB = await post<{ UserID: number }>(token, '/api/UserInfo/Save', {
    UserName: speakerB,
    MobilePhone: phone(2),
    Password: 'Term-Pass-26',
  });
  const uids = [userA.UserID, userB.UserID];
  const cidA = (await post<{ CID: number }>(token, '/api/Channel/CreateWebChannel', { cname: channelA, uids })).CID;
  const cidB = (await post<{ CID: number }>(token, '/api/Channel/CreateWebChannel', { cname: channelB, uids })).CID;
  return { E_ID: userA.E_ID, userA: userA.UserID, userB: userB.UserID, cidA, cidB };
}

interface NewRecording {
  RType: 'group' | 'private';
  CID: number | null;
  U_ID: number;
  ToU_ID?: number;
  minutesAgo: number;
  /** false: the row names a file that is not there. */
  file: boolean;
}

/**
 * What the talk server will write (DESIGN.md section 7): an Ogg Opus file under
 * DATA_DIR/recordings and a recording row naming it relative to that directory.
 */
function addRecordings(E_ID: number, recordings: NewRecording[]): void {
  const dataDir = inject('dataDir');
  const { bytes, durationMs } = speechBurst();
  const db = new Database(path.join(dataDir, 'intercom.sqlite'), { timeout: 10_000 });
  try {
    const insert = db.prepare(
      `INSERT INTO recording (E_ID, CID, U_ID, ToU_ID, RType, StartAt, Duration, FilePath, Size)
       VALUES (@E_ID, @CID, @U_ID, @ToU_ID, @RType, @StartAt, @Duration, @FilePath, @Size)`,
    );
    for (const [index, recording] of recordings.entries()) {
      const FilePath = `${E_ID}/e2e-${stamp}-${index}.ogg`;
      if (recording.file) {
        const target = path.join(dataDir, 'recordings', FilePath);
        fs.mkdirSync(path.dirname(target), { recursive: true });
        fs.writeFileSync(target, bytes);
      }
      insert.run({
        E_ID,
        CID: recording.CID,
        U_ID: recording.U_ID,
        ToU_ID: recording.ToU_ID ?? null,
        RType: recording.RType,
        StartAt: Date.now() - recording.minutesAgo * 60_000,
        Duration: Math.round(durationMs),
        FilePath,
        Size: recording.file ? bytes.length : 0,
      });
    }
  } finally {
    db.close();
  }
}

// ---- what a person does and sees ----

function rowsOf(page: Page): Locator {
  return page.getByTestId('recording-list').locator('tbody tr.ant-table-row');
}

/** A row's play button (its accessible name also says which recording). */
function playButton(row: Locator): Locator {
  return row.getByRole('button').filter({ hasText: en('recordings.play') });
}

/** Picks an option of an antd select in the filter bar, typing to search when asked. */
async function pickFilter(page: Page, field: string, option: string, type?: string): Promise<void> {
  const select = page.locator(`#filter_${field}`);
  await select.click();
  if (type !== undefined) await select.fill(type);
  await clickWhenStill(page.locator('.ant-select-dropdown:visible').getByTitle(option, { exact: true }));
}

async function search(page: Page): Promise<void> {
  await page
    .getByTestId('list-filters')
    .getByRole('button', { name: nameEndingWith(en('list.search')) })
    .click();
}

async function resetFilters(page: Page): Promise<void> {
  await page
    .getByTestId('list-filters')
    .getByRole('button', { name: nameEndingWith(en('list.reset')) })
    .click();
}

describe('recording history', () => {
  test('filters by type and channel, plays a recording and shows a missing file', async () => {
    const page = await browser.newPage();
    await openSignedIn(page, adminCredentials(), '/Channel/RecdHis');
    const seeded = await seedDirectory(await tokenOf(page));
    addRecordings(seeded.E_ID, [
      { RType: 'group', CID: seeded.cidA, U_ID: seeded.userA, minutesAgo: 4, file: true },
      { RType: 'group', CID: seeded.cidB, U_ID: seeded.userB, minutesAgo: 3, file: true },
      { RType: 'private', CID: null, U_ID: seeded.userA, ToU_ID: seeded.userB, minutesAgo: 2, file: true },
      { RType: 'group', CID: seeded.cidA, U_ID: seeded.userB, minutesAgo: 1, file: false },
    ]);
    await page.reload();
    await page.getByTestId('recording-list').waitFor();

    // Private calls only: every row is a private call (other files of the run make some on the
    // shared server), and of this file's four recordings only the call between A and B is left,
    // named by its other party.
    await pickFilter(page, 'RType', en('recordings.type_private'));
    await search(page);
    await expect.poll(() => rowsOf(page).filter({ hasText: stamp }).count()).toBe(1);
    const types = await rowsOf(page).allInnerTexts();
    expect(types.length).toBeGreaterThan(0);
    for (const row of types) expect(row).toContain(en('recordings.type_private'));
    const privateRow = rowsOf(page).filter({ hasText: stamp }).first();
    await privateRow.getByText(en('recordings.to_party', { name: speakerB }), { exact: true }).waitFor();
    await privateRow.getByText(en('recordings.type_private'), { exact: true }).waitFor();

    // Channel B only (found by typing its name): one group call, spoken by B.
    await resetFilters(page);
    await pickFilter(page, 'CID', channelB, channelB);
    await search(page);
    await expect.poll(() => rowsOf(page).count()).toBe(1);
    await rowsOf(page).first().getByText(speakerB).waitFor();
    await rowsOf(page).first().getByText(channelB, { exact: true }).waitFor();

    // Channel A: two bursts, newest first; the newest has lost its file.
    await resetFilters(page);
    await pickFilter(page, 'CID', channelA, channelA);
    await search(page);
    await expect.poll(() => rowsOf(page).count()).toBe(2);
    await expect.poll(() => rowsOf(page).first().innerText()).toContain(speakerB);
    await expect.poll(() => rowsOf(page).nth(1).innerText()).toContain(speakerA);

    // Playing A's burst: the audio element gets a play URL that answers with Ogg audio, seekable.
    await playButton(rowsOf(page).nth(1)).click();
    const player = page.getByTestId('recording-player');
    const audio = player.getByLabel(en('recordings.audio_label'));
    await audio.waitFor();
    const src = await audio.getAttribute('src');
    expect(src).toMatch(/^\/api\/Media\/Play\//);
    const answer = await page.evaluate(async (url) => {
      const response = await fetch(url, { headers: { Range: 'bytes=0-99' } });
      return {
        status: response.status,
        type: response.headers.get('Content-Type'),
        size: (await response.blob()).size,
      };
    }, src ?? '');
    expect(answer).toEqual({ status: 206, type: 'audio/ogg', size: 100 });
    const download = player.getByRole('link', { name: nameEndingWith(en('recordings.download')) });
    expect(await download.getAttribute('href')).toBe(`${src}?download=1`);
    expect(await player.getByRole('alert').count()).toBe(0);
    await page.keyboard.press('Escape');
    await audio.waitFor({ state: 'detached' });

    // The burst without a file: the player says so, in words, and offers nothing to play.
    await playButton(rowsOf(page).first()).click();
    await player.getByRole('alert').getByText(en('recording.file_missing'), { exact: true }).waitFor();
    expect(await player.getByLabel(en('recordings.audio_label')).count()).toBe(0);
  });
});
