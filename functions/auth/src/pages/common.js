'use strict';
// Shared by both pages. The token stays in this page: it is read from the address and
// sent only in the body of a call to this origin (the page's policy allows no other).
const token = new URLSearchParams(window.location.search).get('token') || '';
const outcome = document.getElementById('outcome');

/** Shows the outcome: its kind (a data attribute) and text, and the problem's field messages. */
function show(kind, text, fields) {
  outcome.dataset.outcome = kind;
  outcome.textContent = text;
  if (fields && fields.length > 1) {
    const list = document.createElement('ul');
    for (const f of fields) {
      const item = document.createElement('li');
      item.textContent = `${f.field}: ${f.message}`;
      list.append(item);
    }
    outcome.append(list);
  }
  outcome.hidden = false;
}

/**
 * POSTs `body` as JSON to `path` (relative to this page, so a base path is kept) and
 * gives `{ ok, status, problem }`; `problem` is the problem+json body of a refusal.
 */
async function call(path, body) {
  try {
    const res = await fetch(new URL(path, window.location.href), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
      credentials: 'omit',
      cache: 'no-store',
    });
    let problem = {};
    if (!res.ok) {
      try {
        problem = await res.json();
      } catch {
        problem = {};
      }
    }
    return { ok: res.ok, status: res.status, problem };
  } catch {
    return { ok: false, status: 0, problem: { detail: 'the service could not be reached' } };
  }
}

/** Whether a refusal is about the link's token (used, expired, outdated or unknown). */
function tokenRefused(r) {
  return r.status === 400 && (r.problem.errors || []).some((e) => e.field === 'token');
}

/** The text of a failure that is neither the link's nor the input's fault. */
function failure(r) {
  const why = r.problem.detail || `the service answered ${r.status}`;
  return r.status === 429 ? `Too many attempts: ${why}. Wait a little and try again.` : `Something went wrong: ${why}. Try again.`;
}

if (!token) {
  show('missing', 'This link is incomplete: open the whole link from the mail.');
}
