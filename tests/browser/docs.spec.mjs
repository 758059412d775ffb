// Real-browser check of the interactive documentation (Swagger UI), in Debian's Chromium.
//
//   BASE_URL=http://127.0.0.1:PORT [DOC_PATH=/swagger-ui] node --test docs.spec.mjs
//
// Normally run by `make test-browser`, which starts a throw-away stack (scripts/with-stack.sh)
// and provides BASE_URL. CHROMIUM_PATH overrides /usr/bin/chromium. Screenshots go to
// .local/screenshots/ at the repository root: docs.png (the executed operation and its
// response), docs-full.png (the whole page) and, after any run, docs-last.png.
//
// What a person would do, step by step: register and log in (through fetch, to get a
// token); open ${BASE_URL}${DOC_PATH}; see every operation of /api-docs/openapi.json
// listed, each tag's operations ordered by HTTP method (SORT=method); click "Authorize" and
// enter the token; open GET /api/transactions, "Try it out", "Execute", and see 200 with
// the caller's transaction in the body.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { BASE_URL, SCREENSHOTS, UI_TIMEOUT, api, closeBrowser, launchBrowser } from './stack.mjs';

const DOC_PATH = process.env.DOC_PATH || '/swagger-ui';
const OPENAPI_URL = `${BASE_URL}/api-docs/openapi.json`;

// The methods Swagger UI shows as operations (its `validOperationMethods`).
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

// Swagger UI's `operationsSorter: "method"` is exactly
// `(a, b) => a.get("method").localeCompare(b.get("method"))` on the lower-case method
// (swagger-ui 5.x core/utils), applied to each tag's operations: alphabetical order of the
// method names, so delete < get < head < options < patch < post < put < trace.
const byMethod = (a, b) => a.method.localeCompare(b.method);

const opLabel = (op) => `${op.method.toUpperCase()} ${op.path}`;

/** The operations of the document, per tag, in document order ("default" for untagged ones). */
function operationsByTag(doc) {
  const byTag = new Map();
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(item ?? {})) {
      if (!METHODS.includes(method)) continue;
      const tags = op?.tags?.length ? op.tags : ['default'];
      for (const tag of tags) {
        if (!byTag.has(tag)) byTag.set(tag, []);
        byTag.get(tag).push({ method, path });
      }
    }
  }
  return byTag;
}

/** The scheme Swagger UI's Authorize dialog should receive the token in, and the value to type. */
function bearerScheme(doc, token) {
  const schemes = Object.entries(doc.components?.securitySchemes ?? {});
  for (const [name, s] of schemes) {
    if (s.type === 'http' && String(s.scheme).toLowerCase() === 'bearer') return { name, value: token };
  }
  for (const [name, s] of schemes) {
    if (s.type === 'apiKey' && s.in === 'header' && String(s.name).toLowerCase() === 'authorization') {
      return { name, value: `Bearer ${token}` };
    }
  }
  return undefined;
}

describe('interactive documentation in a real browser', { timeout: 180_000 }, () => {
  let doc;
  let token;
  let note;
  let context;
  let page;
  let profile;
  const pageErrors = [];
  const blocked = [];
  // Later steps need the page of the earlier ones; after a failure they stop at once.
  let uiShown = false;
  let authorized = false;

  before(async () => {
    assert.ok(BASE_URL, 'BASE_URL is not set: run through `make test-browser` (scripts/with-stack.sh)');
    await mkdir(SCREENSHOTS, { recursive: true });

    const res = await fetch(OPENAPI_URL);
    assert.equal(res.status, 200, `GET ${OPENAPI_URL} answered ${res.status}`);
    doc = await res.json();

    // A user of our own, logged in, with one transaction to see in the list.
    const email = `docs-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
    const password = 'correct horse battery staple';
    const reg = await api('POST', '/auth/register', {
      body: { firstname: 'Docs', lastname: 'Browser', email, password, confirmPassword: password },
    });
    assert.equal(reg.status, 201, `register: ${reg.status} ${reg.text}`);
    const login = await api('POST', '/auth/login', { body: { email, password } });
    assert.equal(login.status, 200, `login: ${login.status} ${login.text}`);
    token = login.json?.token;
    assert.ok(token, `login answered no token: ${login.text}`);
    const categories = await api('GET', '/api/categories', { token });
    assert.equal(categories.status, 200, `categories: ${categories.status} ${categories.text}`);
    const category = categories.json?.[0];
    assert.ok(category?.id, `no category to use: ${categories.text}`);
    note = `seen in Swagger UI ${Date.now()}`;
    const created = await api('POST', '/api/transactions', {
      token,
      body: { amount: '12.34', categoryId: category.id, date: '2026-11-01', note },
    });
    assert.equal(created.status, 201, `create transaction: ${created.status} ${created.text}`);

    // The page may only talk to the API under test; anything else (e.g. an online
    // validator badge) is refused and reported.
    ({ profile, context, page } = await launchBrowser({
      viewport: { width: 1280, height: 900 },
      blocked,
      pageErrors,
    }));
  });

  after(async () => {
    if (blocked.length) console.log(`requests to other origins refused: ${[...new Set(blocked)].join(', ')}`);
    if (pageErrors.length) console.log(`page errors: ${pageErrors.join(' | ')}`);
    // Whatever happened, leave a picture of it.
    await closeBrowser({ profile, context, page }, 'docs-last.png');
  });

  it('serves Swagger UI at DOC_PATH with every operation, each tag sorted by method', async () => {
    const res = await page.goto(`${BASE_URL}${DOC_PATH}`, { waitUntil: 'load' });
    assert.equal(res?.status(), 200, `GET ${DOC_PATH} answered ${res?.status()}`);
    await page.locator('.swagger-ui .opblock-tag-section').first().waitFor({ timeout: UI_TIMEOUT });
    assert.equal(await page.locator('.swagger-ui .errors-wrapper').count(), 0, 'Swagger UI shows errors');
    uiShown = true;

    // Open every collapsed tag (docExpansion "none" renders no operations until then).
    for (const header of await page.locator('.opblock-tag-section h3.opblock-tag[data-is-open="false"]').all()) {
      await header.click();
    }

    const listed = await page.$$eval('.swagger-ui .opblock-tag-section', (sections) =>
      sections.map((section) => ({
        tag: section.querySelector('h3.opblock-tag')?.getAttribute('data-tag'),
        ops: [...section.querySelectorAll('.opblock')].map((op) => {
          const pathEl = op.querySelector('.opblock-summary [data-path]');
          return {
            method: op.querySelector('.opblock-summary-method')?.textContent.trim().toLowerCase(),
            path: pathEl?.getAttribute('data-path') ?? '',
          };
        }),
      })),
    );

    const expected = operationsByTag(doc);
    const total = [...expected.values()].reduce((n, ops) => n + ops.length, 0);
    assert.ok(total > 0, 'the OpenAPI document has no operations');
    console.log(`${total} operation listings in ${expected.size} tags; as shown:`);
    for (const { tag, ops } of listed) console.log(`  ${tag}: ${ops.map(opLabel).join(', ')}`);

    // Every operation of the document is listed under each of its tags, and nothing else.
    assert.deepEqual(
      listed.map((s) => s.tag).sort(),
      [...expected.keys()].sort(),
      'the tags shown differ from the document',
    );
    for (const { tag, ops } of listed) {
      assert.deepEqual(
        ops.map(opLabel).sort(),
        expected.get(tag).map(opLabel).sort(),
        `tag "${tag}": operations shown differ from the document`,
      );
    }

    // Within each tag, the methods are in Swagger UI's "method" order.
    for (const { tag, ops } of listed) {
      for (let i = 1; i < ops.length; i++) {
        assert.ok(
          byMethod(ops[i - 1], ops[i]) <= 0,
          `tag "${tag}": ${opLabel(ops[i - 1])} is shown before ${opLabel(ops[i])}, ` +
            `not sorted by method: ${ops.map(opLabel).join(', ')}`,
        );
      }
    }
  });

  it('gives every operation its own operationId (Swagger UI tells operations apart by it)', () => {
    // OpenAPI requires unique operationIds; Swagger UI keys its request state by them, so
    // with duplicates "Execute" on one operation sends another operation's request.
    const seen = new Map();
    for (const [path, item] of Object.entries(doc.paths ?? {})) {
      for (const [method, op] of Object.entries(item ?? {})) {
        if (!METHODS.includes(method) || !op?.operationId) continue;
        if (!seen.has(op.operationId)) seen.set(op.operationId, []);
        seen.get(op.operationId).push(opLabel({ method, path }));
      }
    }
    const duplicates = [...seen].filter(([, ops]) => ops.length > 1).map(([id, ops]) => `${id}: ${ops.join(', ')}`);
    assert.deepEqual(duplicates, [], `operationIds used more than once:\n  ${duplicates.join('\n  ')}`);
  });

  it('authorizes with the bearer token through the Authorize dialog', async () => {
    assert.ok(uiShown, 'Swagger UI was not shown (see the first step)');
    const scheme = bearerScheme(doc, token);
    assert.ok(scheme, `no bearer security scheme in the document: ${JSON.stringify(doc.components?.securitySchemes)}`);

    await page.locator('.swagger-ui .auth-wrapper button.authorize').click();
    const dialog = page.locator('.swagger-ui .dialog-ux .modal-ux');
    await dialog.waitFor({ timeout: UI_TIMEOUT });
    // Each scheme is a block headed `<h4><code>NAME</code> (http, Bearer)</h4>`.
    const block = dialog.locator(`xpath=.//h4[code[normalize-space()="${scheme.name}"]]/..`).first();
    await block.locator('input').first().fill(scheme.value);
    const form = block.locator('xpath=ancestor::form[1]');
    await form.locator('button[type="submit"], button.authorize').first().click();
    // Authorized: the value is masked and the button becomes "Logout".
    await form.locator('button', { hasText: 'Logout' }).first().waitFor({ timeout: UI_TIMEOUT });
    await dialog.locator('button.btn-done, button.close-modal').first().click();
    await dialog.waitFor({ state: 'detached', timeout: UI_TIMEOUT });
    await page.locator('.swagger-ui .auth-wrapper button.authorize.locked').waitFor({ timeout: UI_TIMEOUT });
    authorized = true;
  });

  it('tries GET /api/transactions and shows 200 with the caller\'s transaction', async () => {
    assert.ok(authorized, 'not authorized in Swagger UI (see the earlier steps)');
    const op = page
      .locator('.swagger-ui .opblock.opblock-get')
      .filter({ has: page.locator('.opblock-summary [data-path="/api/transactions"]') })
      .first();
    await op.waitFor({ timeout: UI_TIMEOUT });
    if (!(await op.evaluate((el) => el.classList.contains('is-open')))) {
      await op.locator('.opblock-summary').first().click();
    }
    const body = op.locator('.opblock-body');
    await body.waitFor({ timeout: UI_TIMEOUT });

    // "Try it out" (absent when the UI starts in try-it-out mode), then "Execute".
    await body.locator('button.try-out__btn, button.execute').first().waitFor({ timeout: UI_TIMEOUT });
    const tryOut = body.locator('button.try-out__btn');
    if ((await tryOut.count()) > 0 && !(await tryOut.first().evaluate((b) => b.classList.contains('cancel')))) {
      await tryOut.first().click();
    }
    await body.locator('button.execute').click();

    const status = body.locator('.live-responses-table tbody tr.response td.response-col_status').first();
    await status.waitFor({ timeout: UI_TIMEOUT });
    const code = (await status.evaluate((td) => td.firstChild?.textContent ?? td.textContent)).trim();
    const curl = (await body.locator('.curl-command, .curl').first().textContent().catch(() => '')) ?? '';
    const requestUrl = ((await body.locator('.request-url pre').first().textContent().catch(() => '')) ?? '').trim();
    const shown = (await body.locator('.live-responses-table tbody tr.response td.response-col_description').first().textContent()) ?? '';

    // docs.png: the operation from its summary to the live response (curl, request URL,
    // code, body); docs-full.png: the whole page.
    await op.scrollIntoViewIfNeeded();
    const top = await op.boundingBox();
    const live = await body.locator('.live-responses-table').first().boundingBox();
    const scrollY = await page.evaluate(() => window.scrollY);
    if (top && live) {
      const y = top.y + scrollY;
      const clip = { x: top.x, y, width: top.width, height: live.y + scrollY + live.height - y + 8 };
      await page.screenshot({ path: join(SCREENSHOTS, 'docs.png'), fullPage: true, clip });
    } else {
      await page.screenshot({ path: join(SCREENSHOTS, 'docs.png') });
    }
    await page.screenshot({ path: join(SCREENSHOTS, 'docs-full.png'), fullPage: true });

    assert.equal(
      new URL(requestUrl, BASE_URL).pathname,
      '/api/transactions',
      `"Execute" on GET /api/transactions sent ${requestUrl || 'no request'}`,
    );
    assert.equal(code, '200', `Execute showed ${code}: ${shown.slice(0, 500)}`);
    assert.match(curl, /Authorization: Bearer /i, `the request Swagger UI sent carried no bearer token: ${curl}`);
    assert.ok(shown.includes(note), `the response shown does not hold the caller's transaction "${note}": ${shown.slice(0, 500)}`);
  });
});
