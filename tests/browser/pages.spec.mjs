// Real-browser check of the pages the mailed links open (functions/auth/src/pages/), in
// Debian's Chromium, against the mail the API really sent.
//
//   BASE_URL=http://127.0.0.1:PORT MAIL_UI_PORT=PORT node --test pages.spec.mjs
//
// Normally run by `make test-browser`: scripts/with-stack.sh starts the API with
// APP_URL=BASE_URL (the mailed links open the API's own pages) and the maildev catcher,
// whose REST API (GET /email) holds the mails. Screenshots: .local/screenshots/
// pages-verify.png and pages-reset.png (each page's outcome) and, after any run,
// pages-last.png.
//
// What a person would do: register; open the verification link from the inbox, see the
// address still unverified (opening the page spends nothing), press the button, see it
// confirmed; ask for a password reset, open that link, submit a password the API
// refuses and read why, submit a good one twice, see it done, log in with it over HTTP;
// open the used link again and be told it is spent.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { BASE_URL, SCREENSHOTS, UI_TIMEOUT, api, closeBrowser, launchBrowser } from './stack.mjs';

const MAIL_UI_PORT = process.env.MAIL_UI_PORT ?? '';
const PASSWORD = 'correct horse battery staple';
const NEW_PASSWORD = 'a page-typed passphrase 2026';

/** The link to `page` in the newest mail to `to`, waiting up to 10 s for `atLeast` mails. */
async function mailedLink(to, page, atLeast) {
  const prefix = `${BASE_URL}/${page}?token=`;
  let mails = [];
  for (let i = 0; i < 50; i++) {
    const res = await fetch(`http://127.0.0.1:${MAIL_UI_PORT}/email`);
    assert.equal(res.status, 200, `the inbox's REST API answered ${res.status}`);
    mails = (await res.json()).filter((m) =>
      (m.to ?? []).some((a) => String(a.address).toLowerCase() === to.toLowerCase()),
    );
    if (mails.length >= atLeast) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  for (const mail of mails.reverse()) {
    const at = (mail.text ?? '').indexOf(prefix);
    if (at >= 0) return prefix + mail.text.slice(at + prefix.length).match(/^[A-Za-z0-9_-]*/)[0];
  }
  assert.fail(`no mail to ${to} links to ${prefix}: ${JSON.stringify(mails.map((m) => m.text))}`);
}

describe('the pages of the mailed links in a real browser', { timeout: 180_000 }, () => {
  const email = `pages-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  let context;
  let page;
  let profile;
  const pageErrors = [];
  const policyViolations = [];
  const blocked = [];
  let verified = false;

  before(async () => {
    assert.ok(BASE_URL, 'BASE_URL is not set: run through `make test-browser` (scripts/with-stack.sh)');
    assert.ok(MAIL_UI_PORT, 'MAIL_UI_PORT is not set: run through `make test-browser` (it starts the catcher)');
    await mkdir(SCREENSHOTS, { recursive: true });
    const reg = await api('POST', '/auth/register', {
      body: { firstname: 'Page', lastname: 'Browser', email, password: PASSWORD, confirmPassword: PASSWORD },
    });
    assert.equal(reg.status, 201, `register: ${reg.status} ${reg.text}`);

    // The pages may only talk to the API under test.
    ({ profile, context, page } = await launchBrowser({
      viewport: { width: 900, height: 700 },
      blocked,
      pageErrors,
    }));
    // A blocked inline script or style is reported on the console: the page would be dead.
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) policyViolations.push(m.text());
    });
  });

  after(async () => {
    await closeBrowser({ profile, context, page }, 'pages-last.png');
  });

  /** Opens a mailed link in the browser and checks the page's headers. */
  async function openLink(link) {
    const res = await page.goto(link, { waitUntil: 'load' });
    assert.equal(res?.status(), 200, `GET ${link} answered ${res?.status()}`);
    const headers = res.headers();
    assert.equal(headers['cache-control'], 'no-store');
    assert.equal(headers['referrer-policy'], 'no-referrer');
    assert.match(headers['content-security-policy'] ?? '', /default-src 'none'/);
  }

  /** Waits for the page's outcome and gives its kind and text. */
  async function outcome(previous) {
    const shown = page.locator('#outcome[data-outcome]:not([hidden])');
    await shown.waitFor({ timeout: UI_TIMEOUT });
    if (previous) {
      await page.waitForFunction(
        ([kind, text]) => {
          const o = document.getElementById('outcome');
          return o.dataset.outcome !== kind || o.textContent !== text;
        },
        [previous.kind, previous.text],
        { timeout: UI_TIMEOUT },
      );
    }
    return { kind: await shown.getAttribute('data-outcome'), text: (await shown.textContent()) ?? '' };
  }

  it('confirms the address only when the button is pressed', async () => {
    const link = await mailedLink(email, 'verify-email', 1);
    await openLink(link);
    await page.getByRole('button', { name: 'Confirm my address' }).waitFor({ timeout: UI_TIMEOUT });
    // Opening the page (as a mail scanner would) confirmed nothing.
    const before = await api('POST', '/auth/login', { body: { email, password: PASSWORD } });
    assert.equal(before.status, 200, `login: ${before.status} ${before.text}`);
    assert.equal(before.json.user.emailVerified, false, 'opening the page verified the address');

    await page.getByRole('button', { name: 'Confirm my address' }).click();
    const shown = await outcome();
    await page.screenshot({ path: join(SCREENSHOTS, 'pages-verify.png'), fullPage: true });
    assert.equal(shown.kind, 'verified', `the page showed: ${shown.text}`);
    assert.match(shown.text, /confirmed/);
    const after = await api('POST', '/auth/login', { body: { email, password: PASSWORD } });
    assert.equal(after.json?.user?.emailVerified, true, `after the button: ${after.text}`);
    verified = true;
  });

  it('sets a new password from the reset link, says why one is refused, then logs in with it', async () => {
    assert.ok(verified, 'the verification step failed (see above)');
    const asked = await api('POST', '/auth/password-reset', { body: { email } });
    assert.equal(asked.status, 202, `password-reset: ${asked.status} ${asked.text}`);
    const link = await mailedLink(email, 'reset-password', 2);
    await openLink(link);

    // Refused: the API's reason is shown, and the link still works.
    await page.getByLabel('New password', { exact: true }).fill('too short');
    await page.getByLabel('Repeat the new password').fill('too short');
    await page.getByRole('button', { name: 'Set the password' }).click();
    const refused = await outcome();
    assert.equal(refused.kind, 'refused', `the page showed: ${refused.text}`);
    assert.match(refused.text, /password: must be at least 15 characters/);

    await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('Repeat the new password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Set the password' }).click();
    const done = await outcome(refused);
    await page.screenshot({ path: join(SCREENSHOTS, 'pages-reset.png'), fullPage: true });
    assert.equal(done.kind, 'done', `the page showed: ${done.text}`);
    assert.equal(await page.locator('#reset').isHidden(), true, 'the form is still offered');

    const login = await api('POST', '/auth/login', { body: { email, password: NEW_PASSWORD } });
    assert.equal(login.status, 200, `login with the new password: ${login.status} ${login.text}`);
    const old = await api('POST', '/auth/login', { body: { email, password: PASSWORD } });
    assert.equal(old.status, 401, `the old password still logs in: ${old.status}`);

    // The used link, opened again, says so.
    await openLink(link);
    await page.getByLabel('New password', { exact: true }).fill(`${NEW_PASSWORD} again`);
    await page.getByLabel('Repeat the new password').fill(`${NEW_PASSWORD} again`);
    await page.getByRole('button', { name: 'Set the password' }).click();
    const spent = await outcome();
    assert.equal(spent.kind, 'expired', `the page showed: ${spent.text}`);
  });

  it('runs under its policy: no blocked script or style, no other origin, no page error', () => {
    assert.deepEqual(policyViolations, [], 'Content-Security-Policy blocked part of a page');
    assert.deepEqual(blocked, [], 'a page asked another origin');
    assert.deepEqual(pageErrors, [], 'a page threw');
  });
});
