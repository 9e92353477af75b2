import type { Locator, Page } from 'playwright-core';
import { expect, inject } from 'vitest';
import type { Credentials } from './accounts.js';
import { signInByApi } from './apiLogin.js';
import { text, type Language } from './texts.js';

/** Where the dashboard lives: `/` redirects there (SPEC.md section 2). */
export const DASHBOARD_PATH = '/Managent/dashboard';

export function urlOf(path: string): string {
  return new URL(path, inject('baseUrl')).href;
}

/** Opens a path like a typed address; callers then wait for what they expect to see. */
export async function open(page: Page, path: string): Promise<void> {
  await page.goto(urlOf(path), { waitUntil: 'commit' });
}

/** Path and query of the address bar, decoded the way a person reads it. */
export function addressOf(page: Page): { pathname: string; params: URLSearchParams } {
  const url = new URL(page.url());
  return { pathname: url.pathname, params: url.searchParams };
}

/** Waits until the address bar shows `pathname` (and, when given, exactly that `redirect` parameter). */
export async function waitForPath(page: Page, pathname: string, redirect?: string): Promise<void> {
  await page.waitForURL(
    (url) => url.pathname === pathname && (redirect === undefined || url.searchParams.get('redirect') === redirect),
  );
}

function escapeRegExp(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * An accessible name that ends with `label`. Icons inside antd menu entries and buttons add their
 * own label in front ("logout Log out"); antd also shows a two-character Chinese button text
 * with a space between the characters ("登 录").
 */
export function nameEndingWith(label: string): RegExp {
  const spaced = /^\p{Script=Han}{2}$/u.test(label) ? [...label].map(escapeRegExp).join('\\s?') : escapeRegExp(label);
  return new RegExp(`(^|\\s)${spaced}$`, 'u');
}

/** The login form's submit button, in the given language. */
export function loginButton(page: Page, language: Language = 'en'): Locator {
  return page.getByRole('button', { name: nameEndingWith(text(language, 'login.submit')) });
}

/** Fills the login form as a person would and presses the button. */
export async function submitLogin(page: Page, credentials: Credentials, language: Language = 'en'): Promise<void> {
  await page.getByLabel(text(language, 'login.account'), { exact: true }).fill(credentials.account);
  await page.getByLabel(text(language, 'login.password'), { exact: true }).fill(credentials.password);
  await page.getByLabel(text(language, 'login.company_code'), { exact: true }).fill(credentials.code);
  await loginButton(page, language).click();
}

/** The hamburger of the top bar: there once the signed-in frame has rendered. */
export function hamburger(page: Page, language: Language = 'en'): Locator {
  return page.getByRole('button', { name: text(language, 'layout.toggle_sidebar'), exact: true });
}

/** The login form's error (the server's message, translated). */
export function loginAlert(page: Page): Locator {
  return page.getByRole('alert');
}

/**
 * Opens `path` (the guard sends a visitor without a token to /login), signs in there and waits
 * for the signed-in frame at the page the login returned to.
 */
export async function logIn(page: Page, credentials: Credentials, path = '/login', language: Language = 'en') {
  await open(page, path);
  await submitLogin(page, credentials, language);
  await page.waitForURL((url) => url.pathname !== '/login');
  await hamburger(page, language).waitFor();
}

/**
 * For tests about something other than the login: signs in through the API (no login page) and
 * opens `path` in the signed-in frame.
 */
export async function openSignedIn(page: Page, credentials: Credentials, path = '/', language: Language = 'en') {
  await signInByApi(page, credentials);
  await open(page, path);
  await hamburger(page, language).waitFor();
}

/** The browser tab's title, which the console sets from the route it shows. */
export function tabTitle(titleKey: string, language: Language = 'en'): string {
  return `${text(language, titleKey)} · ${text(language, 'app.title')}`;
}

/** Waits until the tab's title names the route (the page of that route is the one shown). */
export async function expectRouteTitle(page: Page, titleKey: string, language: Language = 'en'): Promise<void> {
  await expect.poll(() => page.title(), { message: `title of ${page.url()}` }).toBe(tabTitle(titleKey, language));
}

/** The desktop sidebar (an `aside`). */
export function sidebar(page: Page): Locator {
  return page.getByRole('complementary');
}

/** An entry of the sidebar menu by its visible title. */
export function menuEntry(scope: Page | Locator, title: string): Locator {
  return scope.getByRole('menuitem', { name: nameEndingWith(title) });
}

/**
 * Waits until the element and its ancestors have stopped moving (antd popups slide in). On a
 * loaded machine a click aimed while a dropdown still moved can land on its neighbour.
 */
export async function waitForAnimations(element: Locator): Promise<void> {
  await element.evaluate(async (node) => {
    const running: Animation[] = [];
    for (let current: Element | null = node; current; current = current.parentElement) {
      running.push(...current.getAnimations().filter((a) => a.effect?.getComputedTiming().iterations !== Infinity));
    }
    await Promise.all(running.map((animation) => animation.finished.catch(() => undefined)));
  });
}

/** Clicks once the element is shown and stands still (in a sliding drawer, a zooming dialog). */
export async function clickWhenStill(element: Locator): Promise<void> {
  await element.waitFor();
  await waitForAnimations(element);
  await element.click();
}

/** Picks an entry of an open dropdown menu by its visible text, once the menu stands still. */
export async function pickMenuItem(page: Page, entry: string): Promise<void> {
  await clickWhenStill(page.getByRole('menuitem', { name: nameEndingWith(entry) }));
}

/** Opens the user dropdown of the top bar and picks an entry by its visible text. */
export async function userMenu(page: Page, entry: string): Promise<void> {
  await page.getByTestId('user-menu').click();
  await pickMenuItem(page, entry);
}

/** The text a form field is described by (antd links a field's error with aria-describedby). */
export async function fieldError(field: Locator): Promise<string> {
  return field.evaluate((element) => {
    const ids = element.getAttribute('aria-describedby')?.split(/\s+/) ?? [];
    return ids
      .map((id) => element.ownerDocument.getElementById(id)?.textContent ?? '')
      .join(' ')
      .trim();
  });
}

/** Polls until the field's error reads `expected` ('' for no error). */
export async function expectFieldError(field: Locator, expected: string): Promise<void> {
  await expect.poll(() => fieldError(field)).toBe(expected);
}

/** A toast (antd message) with this text. */
export function toast(page: Page, message: string): Locator {
  return page.locator('.ant-message').getByText(message, { exact: true });
}

/** The dashboard is complete: the count cards and the overview chart with its axis labels. */
export async function waitForDashboard(page: Page, language: Language = 'en'): Promise<void> {
  for (const key of ['dashboard.users', 'dashboard.balance', 'dashboard.channels', 'dashboard.recordings']) {
    await page.getByText(text(language, key), { exact: true }).first().waitFor();
  }
  const chart = page.getByTestId('overview-chart');
  await chart.getByText(text(language, 'dashboard.organs'), { exact: true }).waitFor();
}
