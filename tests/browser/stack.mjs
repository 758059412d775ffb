// What both browser specs share: the stack under test (BASE_URL), the API called over
// HTTP, and a fresh headless Chromium that may only talk to that stack.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const BASE_URL = (process.env.BASE_URL ?? '').replace(/\/+$/, '');
export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const SCREENSHOTS = join(REPO, '.local', 'screenshots');
export const UI_TIMEOUT = 30_000;

/** Calls the API under test: the status, the parsed JSON body (if any) and the raw text. */
export async function api(method, path, { token, body } = {}) {
  const headers = { accept: 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${BASE_URL}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, json, text };
}

/**
 * A headless Chromium with a fresh profile and no background traffic (this machine reaches
 * nothing but itself). Requests to any origin but BASE_URL's are refused and pushed to
 * `blocked`; the page's uncaught errors are pushed to `pageErrors`.
 */
export async function launchBrowser({ viewport, blocked, pageErrors }) {
  const profile = await mkdtemp(join(tmpdir(), 'pf-chromium-'));
  let context;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      viewport,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    await context.route(
      (url) => url.origin !== new URL(BASE_URL).origin,
      (route) => {
        blocked.push(route.request().url());
        return route.abort();
      },
    );
    const page = context.pages()[0] ?? (await context.newPage());
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    return { profile, context, page };
  } catch (e) {
    await closeBrowser({ profile, context });
    throw e;
  }
}

/** Leaves a picture of the page as it is in `lastShot` (if given), then closes the browser. */
export async function closeBrowser({ profile, context, page }, lastShot) {
  if (lastShot && page && !page.isClosed()) {
    await page.screenshot({ path: join(SCREENSHOTS, lastShot), fullPage: true }).catch(() => {});
  }
  await context?.close();
  if (profile) await rm(profile, { recursive: true, force: true });
}
