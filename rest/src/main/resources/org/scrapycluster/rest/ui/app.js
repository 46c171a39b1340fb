// The Scrapy Cluster web UI. It talks only to this gateway: GET /live (the cluster's state, read by
// the gateway once per refresh for every open page), GET / and /health (the gateway itself),
// GET /access (what the presented key may do), POST /feed and /poll (crawls and actions). It calls
// them next to its own folder (/ui/), so that it works behind a proxy that adds a path prefix too.
"use strict";

const $ = (id) => document.getElementById(id);

/** A number of seconds the gateway wrote in a <meta> of the page, from its settings, in milliseconds. */
function pageSetting(name) {
  return Number(document.querySelector(`meta[name="${name}"]`).content) * 1000;
}

const POLL_INTERVAL_MS = 1000;
const POLL_ATTEMPTS = 30;
// between two reads of / and /health, and two tries of /live after one failed: UI_HEALTH_REFRESH_SECONDS
const HEALTH_INTERVAL_MS = pageSetting("health-refresh-seconds");
// reads that fail in a row wait twice as long each time, up to this (or UI_HEALTH_REFRESH_SECONDS if longer)
const MAX_RETRY_MS = 60000;
// The gateway answers GET /live from its last refresh, or after waiting at most 5 s for a new one
// when nobody watched: a read that takes longer than this is a gateway that does not answer, given
// up so that the page says so. UI_READ_TIMEOUT_SECONDS
const READ_TIMEOUT_MS = pageSetting("read-timeout-seconds");
// How far ahead of the gateway's clock Expire sets a crawl's expiry: the Kafka monitor refuses an
// expiry already past when it reads the request, so this leaves it time to.
const EXPIRE_AFTER_SECONDS = 5;
const KEY_STORAGE = "scrapy-cluster-api-key";

const state = {
  live: null,
  // whether the last read of the cluster, before any succeeded, was refused for want of a key
  keyNeeded: false,
  span: "5m",
  // the newest crawl first: a crawl's start does not move, so the rows stay where they are from one refresh to the next
  sort: { key: "started", descending: true },
  filter: "",
  canWrite: true,
  charts: {},
  // a crawl (crawlKey) -> a URL this tab fed for it, offered when expiring the crawl; a Map, whose keys
  // are only those set (a crawlid such as "constructor" is no built-in property of it)
  seeds: new Map(),
  // the gateway's clock less this browser's, in seconds, as the last /live answer gave it
  clockOffset: 0,
};

/** A crawl's identity, as the cluster keeps its crawls: one crawlid may be in use by other apps and spiders. */
function crawlKey(crawl) {
  return JSON.stringify([crawl.spiderid, crawl.appid, crawl.crawlid]);
}

/** The time by the gateway's clock, in epoch seconds: this browser's may be off by any amount. */
function gatewayNow() {
  return Date.now() / 1000 + state.clockOffset;
}

// ---------------------------------------------------------------------------------------------
// When to read: only while the tab is shown, and less often while the gateway fails

// The reads due while the tab was hidden, each made once when it is shown again: a tab left in the
// background costs the gateway nothing, and shows the cluster as it is once looked at.
const dueWhenShown = new Set();

document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible") {
    const due = [...dueWhenShown];
    dueWhenShown.clear();
    due.forEach((read) => read());
  }
});

// Has read() made in ms, or once the tab is shown again if it is hidden by then.
function readIn(ms, read) {
  return setTimeout(() => {
    if (document.visibilityState === "visible") {
      read();
    } else {
      dueWhenShown.add(read);
    }
  }, ms);
}

// How long to wait after the failures-th failed read in a row: UI_HEALTH_REFRESH_SECONDS, doubled
// for each failure before it, up to MAX_RETRY_MS.
function retryDelay(failures) {
  return Math.min(HEALTH_INTERVAL_MS * 2 ** Math.min(failures - 1, 16), Math.max(MAX_RETRY_MS, HEALTH_INTERVAL_MS));
}

// ---------------------------------------------------------------------------------------------
// Calls to the gateway, with the tab's API key when it has one

let keyPrompt = null;

function apiKey() {
  return sessionStorage.getItem(KEY_STORAGE);
}

// Asks for a key once; callers that hit 401 meanwhile wait for the same answer. After a key was refused, the dialog
// says so.
function askForKey(refused) {
  if (!keyPrompt) {
    keyPrompt = new Promise((resolve) => {
      const dialog = $("key-dialog");
      $("key-input").value = "";
      $("key-refused").hidden = !refused;
      dialog.addEventListener("close", () => {
        const key = $("key-input").value.trim();
        $("key-input").value = ""; // the page keeps the key in the tab's storage only
        if (dialog.returnValue === "ok" && key) {
          sessionStorage.setItem(KEY_STORAGE, key);
          resolve(true);
        } else {
          resolve(false);
          // the dialog gave the focus back to the page: once the calls waiting for it have shown the button that
          // opens it again (a task later), the focus goes there
          setTimeout(() => {
            if (document.activeElement === document.body && !$("key-button").hidden) {
              $("key-button").focus({ preventScroll: true });
            }
          });
        }
      }, { once: true });
      // Escape closes a dialog with the value it had: in Firefox and Safari that is the last prompt's "ok"
      dialog.returnValue = "";
      dialog.showModal();
    });
  }
  return keyPrompt;
}

// A read answered 401 after the key dialog: it was cancelled, or the key given was refused too.
class KeyNeeded extends Error {}

// The URL of the gateway's endpoint path ("/live"): one level above the page's folder.
function endpoint(path) {
  return new URL(".." + path, document.baseURI);
}

async function call(path, options = {}) {
  for (let attempt = 0; attempt < 2; attempt++) {
    const headers = Object.assign({}, options.headers || {});
    const key = apiKey();
    if (key) {
      headers.Authorization = "Bearer " + key;
    }
    const read = !options.method || options.method === "GET";
    let response;
    try {
      response = await fetch(endpoint(path), Object.assign({}, options,
          { headers, cache: "no-store", signal: read ? AbortSignal.timeout(READ_TIMEOUT_MS) : undefined }));
    } catch (e) {
      throw e.name === "TimeoutError" ? new Error(path + " did not answer within " + READ_TIMEOUT_MS / 1000 + " s") : e;
    }
    if (response.status === 401 && attempt === 0) {
      if (key && apiKey() !== key) {
        // refused a key another call has forgotten already, or one replaced since: the dialog, or the new key, serves
        if (apiKey()) {
          continue;
        }
      } else if (key) {
        // the stored key was refused (a wrong one, or revoked): forget it, say so, and ask again
        sessionStorage.removeItem(KEY_STORAGE);
        keyPrompt = null;
        showAccess({ access: "none", anonymous: false });
        showStatus("the gateway refused the key", true);
      }
      if (await askForKey(Boolean(key))) {
        await refreshAccess();
        continue;
      }
    }
    // a 401 left means no key was given: the header offers the dialog again, which never reopens by itself;
    // an answer to a key hides the offer (/health, open to all, says nothing about keys)
    if (response.status === 401 || key) {
      $("key-button").hidden = response.status !== 401;
    }
    return response;
  }
  throw new Error("unreachable");
}

// Reads a JSON answer of status 200, or of status alsoValid (a /health that is 503 still has its checks).
async function getJson(path, alsoValid) {
  const response = await call(path);
  if (response.status === 401) {
    throw new KeyNeeded("an API key is needed to read the cluster");
  }
  if (!response.ok && response.status !== alsoValid) {
    throw new Error(path + " answered HTTP " + response.status);
  }
  return response.json();
}

async function postJson(path, body) {
  const response = await call(path, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  let envelope = null;
  try {
    envelope = await response.json();
  } catch (e) {
    throw new Error(path + " answered HTTP " + response.status + " without JSON");
  }
  return { status: response.status, envelope };
}

function failureText(envelope, status) {
  const error = envelope && envelope.error;
  if (!error) {
    return "HTTP " + status;
  }
  return error.message + (error.cause ? " " + error.cause : "");
}

function newId() {
  if (window.crypto && crypto.randomUUID) {
    return crypto.randomUUID();
  }
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

// Feeds a request that carries a uuid and returns its answer, polling for it when the gateway
// answers with a poll_id (the answer took longer than WAIT_FOR_RESPONSE_TIME).
async function ask(request) {
  const fed = await postJson("/feed", request);
  if (fed.envelope.status !== "SUCCESS") {
    throw new Error(failureText(fed.envelope, fed.status));
  }
  const data = fed.envelope.data;
  if (!data || !data.poll_id || Object.keys(data).length !== 1) {
    return data;
  }
  for (let attempt = 1; attempt <= POLL_ATTEMPTS; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
    const polled = await postJson("/poll", { poll_id: data.poll_id });
    if (polled.envelope.status === "SUCCESS") {
      return polled.envelope.data;
    }
    if (polled.status !== 404) {
      throw new Error(failureText(polled.envelope, polled.status));
    }
  }
  throw new Error("No answer yet for " + data.poll_id + "; is a Redis monitor running?");
}

function answerError(answer) {
  if (!answer || !answer.error) {
    return null;
  }
  return typeof answer.error === "string" ? answer.error
      : answer.error.message + (answer.error.details ? ": " + answer.error.details.join("; ") : "");
}

const ACCESS_TEXT = { write: "key: read and write", read: "key: read only (actions disabled)", none: "no key" };

// What the key may do: GET /access; a gateway without it (404) has no keys (write, anonymous). Any other failure
// leaves what was shown: a gateway that did not answer says nothing of keys.
async function refreshAccess() {
  const anonymous = { access: "write", anonymous: true };
  let access;
  try {
    const response = await call("/access");
    if (response.ok) {
      access = (await response.json()).data || anonymous;
    } else if (response.status === 401) {
      // keys are on, and this tab has none
      access = { access: "none", anonymous: false };
    } else if (response.status === 404) {
      access = anonymous;
    }
  } catch (e) {
    // the gateway is unreachable: the live status says so
  }
  if (access) {
    showAccess(access);
  }
}

// Shows what the key may do: in the header, and on the action buttons.
function showAccess(access) {
  state.canWrite = access.access === "write";
  $("access").textContent = access.anonymous ? "" : ACCESS_TEXT[access.access];
  // a link cannot send the key: with keys on, /metrics and /live would answer 401
  $("keyed-links").hidden = !access.anonymous;
  // a tab given a read key may be given the write key, or another, without being closed
  $("key-change").hidden = !apiKey();
  for (const button of document.querySelectorAll("button.write, #crawl-rows td.actions button")) {
    // info is a read: a read key may ask it
    button.disabled = !state.canWrite && button.dataset.action !== "info";
  }
}

// ---------------------------------------------------------------------------------------------
// Answers and confirmations

function logAnswer(summary, detail, isError) {
  const item = document.createElement("li");
  const time = document.createElement("time");
  time.textContent = new Date().toLocaleTimeString();
  const text = document.createElement("span");
  text.className = "summary" + (isError ? " error" : "");
  text.textContent = summary;
  item.append(time, text);
  if (detail !== undefined) {
    const pre = document.createElement("pre");
    pre.textContent = typeof detail === "string" ? detail : JSON.stringify(detail, null, 2);
    item.append(pre);
  }
  $("answer-log").prepend(item);
  while ($("answer-log").children.length > 30) {
    $("answer-log").lastElementChild.remove();
  }
}

// Asks the user to confirm; resolves to false on cancel, true (or the URL asked for) on confirm.
function confirmAction(title, text, askUrl) {
  return new Promise((resolve) => {
    const dialog = $("confirm-dialog");
    $("confirm-title").textContent = title;
    $("confirm-text").textContent = text;
    $("confirm-url-label").hidden = !askUrl;
    $("confirm-url").required = Boolean(askUrl);
    $("confirm-url").value = askUrl || "";
    dialog.addEventListener("close", () => {
      if (dialog.returnValue !== "ok") {
        resolve(false);
      } else {
        resolve(askUrl ? $("confirm-url").value.trim() : true);
      }
    }, { once: true });
    dialog.returnValue = "";
    dialog.showModal();
  });
}

// ---------------------------------------------------------------------------------------------
// Actions

async function submitCrawl(event) {
  event.preventDefault();
  const form = event.target;
  const request = {
    url: form.url.value.trim(),
    appid: form.appid.value.trim(),
    crawlid: form.crawlid.value.trim(),
    spiderid: form.spiderid.value.trim(),
    maxdepth: Number(form.maxdepth.value),
    priority: Number(form.priority.value),
  };
  try {
    const fed = await postJson("/feed", request);
    if (fed.envelope.status === "SUCCESS") {
      state.seeds.set(crawlKey(request), request.url);
      // any spiderid is taken, as by the original: a crawl of a spider no crawler runs waits for one to start
      const served = crawlerSpiders();
      const unserved = served.size > 0 && !served.has(request.spiderid)
        ? "; no crawler of spider " + request.spiderid + " is running (crawlers run: " + [...served].join(", ") + "): it waits for one"
        : "";
      logAnswer("Submitted crawl " + request.crawlid + " of " + request.url + unserved, fed.envelope, Boolean(unserved));
      form.crawlid.value = newId().substring(0, 12);
    } else {
      logAnswer("Crawl " + request.crawlid + " refused: " + failureText(fed.envelope, fed.status), fed.envelope, true);
    }
  } catch (e) {
    logAnswer("Crawl " + request.crawlid + " not submitted: " + e.message, undefined, true);
  }
}

// The spiders of the crawler nodes the live view lists (empty before it has read them, or without a key).
function crawlerSpiders() {
  const nodes = (state.live && state.live.nodes) || [];
  return new Set(nodes.filter((node) => node.service === "crawler" && !node.stale).map((node) => node.spider));
}

async function crawlAction(action, crawl) {
  const name = crawl.appid + " / " + crawl.crawlid + " (spider " + crawl.spiderid + ")";
  if (action === "info") {
    await runAction("Info of " + name, { action: "info", appid: crawl.appid, spiderid: crawl.spiderid, crawlid: crawl.crawlid },
        (answer) => answer.total_pending + " requests pending in " + answer.total_domains
            + (answer.total_domains === 1 ? " domain" : " domains"));
    return;
  }
  if (action === "stop") {
    if (await confirmAction("Stop " + name + "?", "Every queued request of the crawl is purged and it is blacklisted; "
        + "pages in flight still arrive.")) {
      await runAction("Stop of " + name, { action: "stop", appid: crawl.appid, spiderid: crawl.spiderid, crawlid: crawl.crawlid },
          (answer) => "Stopped; " + answer.total_purged + " requests purged");
    }
    return;
  }
  // The Kafka monitor writes a crawl's expiry from any of its requests, one it has seen too: the
  // crawl's seed (when this tab fed it) does, or any URL of the crawl.
  const url = await confirmAction("Expire " + name + "?", "A request of the crawl is fed again, at the lowest priority, "
      + "with an expiry " + EXPIRE_AFTER_SECONDS + " seconds from now by the gateway's clock; a Redis monitor then purges "
      + "what is left of the crawl and announces it as expired.", state.seeds.get(crawlKey(crawl)) || "https://");
  if (!url) {
    return;
  }
  const request = { url, appid: crawl.appid, crawlid: crawl.crawlid, spiderid: crawl.spiderid, priority: 1,
    expires: Math.floor(gatewayNow()) + EXPIRE_AFTER_SECONDS };
  try {
    const fed = await postJson("/feed", request);
    const ok = fed.envelope.status === "SUCCESS";
    // taken by Kafka; the Kafka monitor may still refuse it (its answer goes to the outbound topic)
    logAnswer(ok ? "Expiry of " + name + " sent, for " + clock(request.expires)
        : "Expiry of " + name + " refused: " + failureText(fed.envelope, fed.status), fed.envelope, !ok);
  } catch (e) {
    logAnswer("Expiry of " + name + " not sent: " + e.message, undefined, true);
  }
}

async function runAction(title, request, describe) {
  request.uuid = newId();
  try {
    const answer = await ask(request);
    const error = answerError(answer);
    logAnswer(title + ": " + (error || describe(answer)), answer, Boolean(error));
  } catch (e) {
    logAnswer(title + ": " + e.message, undefined, true);
  }
}

async function throttleAction(event) {
  event.preventDefault();
  const form = event.target;
  const action = event.submitter ? event.submitter.value : "domain-update";
  const domain = form.domain.value.trim();
  if (!domain) {
    logAnswer("A domain is needed", undefined, true);
    return;
  }
  const request = { action, appid: "webui", domain };
  let text = "Remove the throttle of " + domain + "? Its crawlers fall back to QUEUE_HITS per QUEUE_WINDOW.";
  if (action === "domain-update") {
    request.hits = Number(form.hits.value);
    request.window = Number(form.window.value);
    request.scale = Number(form.scale.value);
    // the crawlers' limit is hits × scale (0 to 1), cut to a whole number: below 1, nothing is handed out
    const pauses = Math.trunc(request.hits * Math.min(1, Math.max(0, request.scale))) <= 0;
    text = pauses ? "Pause " + domain + " on every crawler (" + request.hits + " hits at scale " + request.scale
        + " let none through): nothing of it is handed out until its throttle is changed or removed?"
        : "Set " + domain + " to " + request.hits + " hits per " + request.window + " s at scale " + request.scale
        + " on every crawler?";
  }
  if (await confirmAction(action === "domain-update" ? "Push a throttle" : "Remove a throttle", text)) {
    await runAction((action === "domain-update" ? "Throttle of " : "Removal of the throttle of ") + domain, request,
        () => "done; the crawlers follow ZooKeeper within seconds");
  }
}

// ---------------------------------------------------------------------------------------------
// The live view

// Sets an element's text only when it changed: a text node replaced loses the selection in it, and a live
// region rewritten is read out again.
function setText(element, text) {
  if (element.textContent !== text) {
    element.textContent = text;
  }
}

// Every table is updated in place at each refresh, its rows keyed by what they show (a crawl's
// spiderid/appid/crawlid, a domain, a node): a row that stays keeps its element, its buttons and their
// focus, and a cell whose text is unchanged keeps its text node and a selection in it; rows that
// come or go are added or removed, and a row that changes place is moved.

// Characters that do not show as themselves: controls (C0, DEL, C1) and the marks and overrides that reorder the text
// around them or break its line (U+061C, U+200E/F, U+2028-E, U+2066-9). A crawl's ids and URLs are whoever sent
// them, so a table shows these as \uXXXX: "rtl\u202Eevil" must not read as "rtllive".
const UNSHOWN = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g;

function shown(text) {
  return String(text).replace(UNSHOWN, (c) => "\\u" + c.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0"));
}

// the key of the row that says a table is empty
const EMPTY_ROW = "\u0000empty";
// the item each row shows now, for its handlers
const rowItems = new WeakMap();

/**
 * Makes the rows of body show items, in their order. table.key(item) is a row's identity; table.columns
 * are { text(item), className (a string, or a function of the item) }; table.build(row, item) adds what a
 * new row has besides its cells' text (buttons, handlers), table.update(row, item) what changes with the item
 * besides that text; table.empty(), with table.columns.length, the row shown when there is no item.
 */
function syncRows(body, items, table) {
  const wanted = [];
  const met = new Map();
  for (const item of items) {
    const key = table.key(item);
    // a key met again (two notices of one crawl in the same second) gets a row of its own
    const times = met.get(key) || 0;
    met.set(key, times + 1);
    wanted.push([times ? key + "\u0000" + times : key, item]);
  }
  if (wanted.length === 0) {
    wanted.push([EMPTY_ROW, null]);
  }
  // rows leaving first, so that those staying need no move
  const keys = new Set(wanted.map(([key]) => key));
  const rows = new Map();
  let focusLeaves = false;
  for (const row of Array.from(body.rows)) {
    if (keys.has(row.dataset.key)) {
      rows.set(row.dataset.key, row);
    } else {
      focusLeaves = focusLeaves || row.contains(document.activeElement);
      row.remove();
    }
  }
  if (focusLeaves) {
    // the focused row left (a crawl stopped with its own button): the focus stays in its table, not on the page's start
    const element = body.closest("table");
    element.tabIndex = -1;
    element.focus({ preventScroll: true });
  }
  wanted.forEach(([key, item], index) => {
    let row = rows.get(key);
    if (!row) {
      row = document.createElement("tr");
      row.dataset.key = key;
      if (item) {
        table.columns.forEach(() => row.insertCell());
        if (table.build) {
          table.build(row, item);
        }
      } else {
        const td = row.insertCell();
        td.colSpan = table.columns.length;
        td.className = "empty";
      }
    }
    if (item) {
      rowItems.set(row, item);
      table.columns.forEach((column, i) => {
        const td = row.cells[i];
        if (column.text) {
          setText(td, shown(column.text(item)));
        }
        const className = (typeof column.className === "function" ? column.className(item) : column.className) || "";
        if (td.className !== className) {
          td.className = className;
        }
      });
      if (table.update) {
        table.update(row, item);
      }
    } else {
      setText(row.cells[0], table.empty());
    }
    const at = body.rows[index] || null;
    if (at !== row) {
      // moveBefore keeps the focus in a row that moves; insertBefore takes it away
      if (row.isConnected && body.moveBefore) {
        body.moveBefore(row, at);
      } else {
        body.insertBefore(row, at);
      }
    }
  });
}

function clock(epochSeconds) {
  if (!epochSeconds) {
    return "—";
  }
  const date = new Date(epochSeconds * 1000);
  const today = new Date().toDateString() === date.toDateString();
  return today ? date.toLocaleTimeString() : date.toLocaleString();
}

function seconds(value) {
  if (value === null || value === undefined) {
    return "—";
  }
  if (value < 90) {
    return Math.round(value) + " s";
  }
  if (value < 5400) {
    return Math.round(value / 60) + " min";
  }
  return (value / 3600).toFixed(1) + " h";
}

const CRAWL_ACTIONS = [["info", "Info", ""], ["stop", "Stop", "danger"], ["expire", "Expire", "danger"]];

const CRAWL_TABLE = {
  key: (crawl) => JSON.stringify([crawl.spiderid, crawl.appid, crawl.crawlid]),
  columns: [
    { text: (crawl) => crawl.appid },
    { text: (crawl) => crawl.crawlid, className: "mono" },
    { text: (crawl) => crawl.spiderid },
    { text: (crawl) => String(crawl.pages), className: "num" },
    { text: (crawl) => String(crawl.pending), className: "num" },
    { text: (crawl) => (crawl.pages_per_second === null ? "—" : crawl.pages_per_second.toFixed(2)), className: "num" },
    // a crawl whose accounting records no start (an older build counted it) and that was already active when the
    // gateway started began earlier, at a time nobody recorded
    { text: (crawl) => (crawl.start_known === false ? "≤ " : "") + clock(crawl.started) },
    { text: (crawl) => (crawl.expires ? clock(crawl.expires) : "never") },
    { className: "actions" },
  ],
  build(row, crawl) {
    row.dataset.crawlid = crawl.crawlid;
    // the actions need only the crawl's identity, which is the row's
    const identity = { appid: crawl.appid, crawlid: crawl.crawlid, spiderid: crawl.spiderid };
    for (const [action, label, className] of CRAWL_ACTIONS) {
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = label;
      button.className = className;
      button.dataset.action = action;
      button.addEventListener("click", () => crawlAction(action, identity));
      row.cells[8].append(button);
    }
  },
  update(row) {
    for (const button of row.cells[8].children) {
      button.disabled = !state.canWrite && button.dataset.action !== "info";
    }
  },
  empty: () => (!readFromRedis() ? notReadText()
    : state.filter ? (listedInPart(state.live) ? "None of the crawls listed matches the filter; it looks at the "
      + state.live.crawls.length + " most recently active of " + state.live.active_crawls + "."
      : "No active crawl matches the filter.") : "No active crawl. Submit one below."),
};

const COMPLETED_TABLE = {
  key: (crawl) => JSON.stringify([crawl.spiderid, crawl.appid, crawl.crawlid, crawl.end, crawl.server_time]),
  columns: [
    { text: (crawl) => crawl.appid },
    { text: (crawl) => crawl.crawlid, className: "mono" },
    { text: (crawl) => crawl.spiderid },
    { text: (crawl) => (crawl.total_purged === null ? crawl.end : `${crawl.end}, ${crawl.total_purged} purged`) },
    { text: (crawl) => (crawl.total_pages === null ? "—" : String(crawl.total_pages)), className: "num" },
    { text: (crawl) => seconds(crawl.duration_seconds), className: "num" },
    { text: (crawl) => clock(crawl.server_time) },
  ],
  empty: () => (state.live ? "No crawl has ended since this gateway started." : notReadText()),
};

function showCrawls(live) {
  const filter = state.filter.toLowerCase();
  const crawls = (live.crawls || []).filter((crawl) => !filter
      || [crawl.appid, crawl.crawlid, crawl.spiderid].some((text) => text.toLowerCase().includes(filter)));
  const { key, descending } = state.sort;
  // crawls equal in the sorted column keep one order, not the order of each refresh's answer
  crawls.sort((a, b) => {
    // a rate not known yet (null, at a crawl's first reading) sorts below every rate
    const order = typeof a[key] === "number" || typeof b[key] === "number" ? (a[key] ?? -1) - (b[key] ?? -1)
      : String(a[key]).localeCompare(String(b[key]));
    return (descending ? -order : order) || CRAWL_TABLE.key(a).localeCompare(CRAWL_TABLE.key(b));
  });
  const listed = (live.crawls || []).length;
  // a filter counts the crawls it shows and their requests, not the cluster's
  const count = filter ? crawls.length + " of " + listed + " shown, "
      + crawls.reduce((sum, crawl) => sum + crawl.pending, 0) + " requests pending in these"
    : (typeof live.active_crawls === "number" && live.active_crawls > listed
      ? listed + " most recently active of " + live.active_crawls : String(crawls.length) + " active") + backlogText(live);
  setText($("crawl-count"), "(" + count + ")");
  syncRows($("crawl-rows"), crawls, CRAWL_TABLE);
  // aria-sort on the sorted column's header only
  for (const th of document.querySelectorAll("#crawl-table th[data-key]")) {
    if (th.dataset.key === key) {
      th.setAttribute("aria-sort", descending ? "descending" : "ascending");
    } else {
      th.removeAttribute("aria-sort");
    }
  }
  syncRows($("completed-rows"), live.completed || [], COMPLETED_TABLE);
}

// Whether more crawls are active than the view lists (LIVE_MAX_CRAWLS): its backlogs are then those of the listed ones.
function listedInPart(live) {
  return Boolean(live) && typeof live.active_crawls === "number" && live.active_crawls > (live.crawls || []).length;
}

function backlogText(live) {
  if (typeof live.backlog !== "number") {
    return "";
  }
  return ", " + live.backlog + " requests pending" + (listedInPart(live) ? " in these" : "");
}

// Whether the gateway has read the domain config from ZooKeeper: until it has, the rows' throttles are the
// defaults for want of the config, which may well set others (a gateway without the field always has).
function domainConfigKnown() {
  return !state.live || state.live.domain_config_known !== false;
}

const DOMAIN_TABLE = {
  key: (domain) => domain.domain,
  columns: [
    { text: (domain) => domain.domain, className: "mono" },
    { text: (domain) => String(domain.backlog), className: "num" },
    { text: (domain) => (!domainConfigKnown() ? "not read yet" : domain.hits + " / " + domain.window + " s"
        + (domain.scale !== null && domain.scale !== 1 ? " × " + domain.scale : "")
        + (domain.throttle_source === "default" ? " (default)" : "")) },
    // a paused domain (hits -1) has no limit to count against: its state says paused
    { text: (domain) => domain.used + " / " + (!domainConfigKnown() ? "?" : domain.limit < 0 ? "none" : domain.limit),
      className: "num" },
    { text: (domain) => domain.state + (domain.state === "backing off" && domain.pause_seconds > 0
        ? " (" + seconds(domain.pause_seconds) + ")" : ""),
      className: (domain) => "state-" + domain.state.replace(" ", "-") },
    { className: "actions" },
  ],
  build(row, domain) {
    row.dataset.domain = domain.domain;
    // a click anywhere on the row fills the form too, and the button does it from the keyboard
    row.addEventListener("click", (event) => {
      if (!event.target.closest("button")) {
        editThrottle(rowItems.get(row));
      }
    });
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = "Edit throttle";
    button.setAttribute("aria-label", "Edit the throttle of " + domain.domain);
    button.addEventListener("click", () => {
      editThrottle(rowItems.get(row));
      $("throttle-form").hits.focus();
    });
    row.cells[5].append(button);
  },
  empty: () => (!readFromRedis() ? notReadText() : domainConfigKnown() ? "No domain has work queued or a throttle of its own."
    : "No domain has work queued; the throttles of the domain config are not read yet."),
};

// Fills the throttle form with a domain's throttle as the last refresh read it. A zookeeper request's window is
// whole seconds (as the original's schema has it), but crawlers apply a window written in ZooKeeper by hand as
// written, 0.5 s say: the form takes the nearest whole second, at least 1, and says so beside the field.
// Until the domain config is read, the row's throttle is the default for want of it, not the domain's: the form
// takes the domain only, its throttle fields left empty (a push still works, and needs them filled) and says why.
function editThrottle(domain) {
  const form = $("throttle-form");
  form.domain.value = domain.domain;
  if (!domainConfigKnown()) {
    form.hits.value = "";
    form.window.value = "";
    form.scale.value = "";
    setText($("throttle-note"), "The current throttle of " + domain.domain
        + " is unknown: the domain config is not read yet. Enter the throttle to push.");
    return;
  }
  const wholeWindow = Math.max(1, Math.round(domain.window));
  form.hits.value = domain.hits;
  form.window.value = wholeWindow;
  form.scale.value = domain.scale === null ? 1 : domain.scale;
  setText($("throttle-note"), wholeWindow === domain.window ? ""
      : domain.domain + " has a window of " + domain.window + " s now; a push sets whole seconds, " + wholeWindow + " s here.");
}

function showDomains(live) {
  // a broad crawl's accounting is read only in part at each refresh (LIVE_MAX_ACCOUNTING_FIELDS)
  setText($("domain-count"), live.domains_partial ? "(backlogs of the most recently active crawls' first domains)"
    : listedInPart(live) ? "(backlogs of the " + live.crawls.length + " crawls listed)" : "");
  setText($("domain-config"), domainConfigKnown() ? "" : "Domain config not read yet (ZooKeeper "
      + (live.zookeeper_connected ? "connected" : "not connected") + ", " + (live.zookeeper_node || "") + "): throttles"
      + " and blacklist unknown; a domain's state is judged by the default throttle.");
  syncRows($("domain-rows"), live.domains || [], DOMAIN_TABLE);
}

const NODE_TABLE = {
  key: (node) => JSON.stringify([node.service, node.host, node.spider, node.id]),
  columns: [
    { text: (node) => node.service + (node.spider ? " · " + node.spider : "") },
    { text: (node) => node.host },
    { text: (node) => node.id, className: "mono" },
    { text: (node) => seconds(node.seen_seconds), className: "num" },
    { text: (node) => seconds(node.heartbeat_age_seconds) + (node.stale ? " stale" : ""),
      className: (node) => "num" + (node.stale ? " stale" : "") },
    { text: (node) => (node.rate === null ? "—" : node.rate.toFixed(2) + "/s"), className: "num" },
  ],
  update(row, node) {
    const title = node.rate_of || "";
    if (row.cells[5].title !== title) {
      row.cells[5].title = title;
    }
  },
  empty: () => (readFromRedis() ? "No heartbeat in Redis: no service is running, or Redis is not the one they use." : notReadText()),
};

function showNodes(live) {
  const nodes = live.nodes || [];
  setText($("node-count"), "(" + nodes.length + ", " + nodes.filter((node) => node.stale).length + " stale)");
  syncRows($("node-rows"), nodes, NODE_TABLE);
}

// ---------------------------------------------------------------------------------------------
// Charts (uPlot)

function cssColor(name) {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim();
}

// The time axis's ticks, in seconds: never closer than a second, which the samples are not either.
const TIME_TICKS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400];

// The time axis's labels on one line, seconds shown only when the ticks are less than a minute apart: uPlot's own
// put the date under the first tick, where it runs into the next one's time.
function timeLabels(u, splits, axisIndex, space, increment) {
  const format = { hour: "numeric", minute: "2-digit" };
  if (increment < 60) {
    format.second = "2-digit";
  }
  return splits.map((t) => new Date(t * 1000).toLocaleTimeString([], format));
}

function chartOptions(series, width) {
  const axis = { stroke: cssColor("--muted"), grid: { stroke: cssColor("--grid"), width: 1 }, ticks: { stroke: cssColor("--grid") } };
  return {
    width,
    height: 220,
    series: [{}].concat(series),
    // room on the right for the last tick's label, which is centred on the plot's edge
    padding: [null, 32, null, null],
    axes: [Object.assign({ values: timeLabels, incrs: TIME_TICKS, space: 90 }, axis), Object.assign({ size: 56 }, axis)],
    scales: { x: { time: true }, y: { range: (u, min, max) => [0, Math.max(1, max * 1.1)] } },
    legend: { live: true },
    cursor: { points: { size: 6 } },
  };
}

const PAGE_SERIES = [["2xx", "--green"], ["3xx", "--blue"], ["4xx", "--orange"], ["5xx", "--red"], ["errors", "--purple"]];
// codes to count for a status class the crawlers do not count
const CODE_EXAMPLES = { "2xx": "200", "3xx": "301, 302", "4xx": "404, 429", "5xx": "500, 503", errors: "504" };

// Says which status codes the crawlers count (the gateway sends a class none of whose codes is counted as null,
// charted as a gap) and how to count more.
function showCodes(live) {
  const codes = live.response_codes || [];
  const pages = ((live.charts || {})[state.span] || {}).pages || {};
  const missing = PAGE_SERIES.map(([name]) => name).filter((name) => pages[name] === null);
  let text = codes.length ? "Counted status codes: " + codes.join(", ") + "." : "The crawlers count no status code (STATS_STATUS_CODES is off).";
  if (missing.length) {
    text += " Not counted, shown as —: " + missing.map((name) => (name === "errors" ? "fetch errors" : name)).join(", ")
        + "; to see them, add codes such as " + missing.map((name) => CODE_EXAMPLES[name]).join(", ")
        + " to the crawlers' STATS_RESPONSE_CODES.";
  }
  setText($("response-codes"), text);
  setText($("node-rate-note"), codes.length ? "A crawler's rate counts only its responses with status " + codes.join(", ")
      + " (STATS_RESPONSE_CODES)." : "");
}

// A legend's value: the point under the pointer, or the newest point while the pointer is off the chart (uPlot then
// gives none, and a "—" would read as a status class not counted); "—" only for a series with no value there.
function legendValue(format) {
  return (u, v, seriesIndex, index) => {
    const values = u.data[seriesIndex] || [];
    const value = index === null || index === undefined ? values[values.length - 1] : v;
    return value === null || value === undefined ? "—" : format(value);
  };
}

function pageSeries() {
  return PAGE_SERIES.map(([name, color]) => ({
    label: name === "errors" ? "fetch errors" : name, stroke: cssColor(color), width: 2,
    value: legendValue((v) => v.toFixed(2) + "/s"),
  }));
}

function queueSeries() {
  return [
    { label: "backlog", stroke: cssColor("--blue"), fill: cssColor("--grid"), width: 2, value: legendValue(String) },
    { label: "domains waiting on throttle", stroke: cssColor("--yellow"), width: 2, value: legendValue(String) },
  ];
}

function chartWidth(element) {
  return Math.max(260, element.clientWidth || element.parentElement.clientWidth || 320);
}

function chartData(live) {
  const charts = (live.charts || {})[state.span];
  if (!charts) {
    return null;
  }
  // a class no crawler counts is null: a gap, not a line of zeros
  return {
    pages: [charts.pages.t].concat(PAGE_SERIES.map(([name]) => charts.pages[name] || charts.pages.t.map(() => null))),
    queues: [charts.queues.t, charts.queues.backlog, charts.queues.waiting],
  };
}

function drawCharts() {
  if (!state.live || typeof uPlot === "undefined") {
    return;
  }
  const data = chartData(state.live);
  if (!data) {
    return;
  }
  for (const [name, element, series] of [["pages", $("chart-pages"), pageSeries], ["queues", $("chart-queues"), queueSeries]]) {
    if (!state.charts[name]) {
      element.replaceChildren();
      state.charts[name] = new uPlot(chartOptions(series(), chartWidth(element)), data[name], element);
    } else {
      state.charts[name].setData(data[name]);
    }
    // how many points carry data, for a glance at the DOM (and the browser tests)
    element.dataset.points = String(data[name][0].filter((t, i) => data[name].slice(1).some((s) => s[i] > 0)).length);
  }
}

function resetCharts() {
  for (const chart of Object.values(state.charts)) {
    chart.destroy();
  }
  state.charts = {};
  drawCharts();
}

// ---------------------------------------------------------------------------------------------
// Refreshing

let liveTimer = null;
let liveFailures = 0;

// The status line is a live region: rewritten only when what it says changes, so that a screen reader
// announces an error, or its end, once.
function showStatus(text, isError) {
  const status = $("live-status");
  setText(status, text);
  const className = "live" + (isError ? " error" : "");
  if (status.className !== className) {
    status.className = className;
  }
}

// Whether the gateway has read the cluster from Redis since it started: until then its tables are not empty, but unknown.
function readFromRedis() {
  return Boolean(state.live) && typeof state.live.read_time_ms === "number";
}

const NOT_READ = "Not read from Redis yet.";
const KEY_NEEDED = "An API key is needed to read the cluster.";

// What a table of what Redis holds says before it is read: why it has not been.
function notReadText() {
  return state.keyNeeded ? KEY_NEEDED : NOT_READ;
}

// The tables of a page that has read nothing of the cluster, each saying why (a key is needed, say), not left blank.
function showUnread() {
  for (const [rows, table] of [["crawl-rows", CRAWL_TABLE], ["completed-rows", COMPLETED_TABLE], ["domain-rows", DOMAIN_TABLE],
    ["node-rows", NODE_TABLE]]) {
    syncRows($(rows), [], table);
  }
}

// When the state shown was read, for a status that says it is not read now.
function readTimeText(live) {
  return typeof live.read_time_ms === "number" ? " (read at " + clock(live.read_time_ms / 1000) + ")" : "";
}

async function refreshLive() {
  try {
    const live = await getJson("/live");
    state.live = live;
    state.keyNeeded = false;
    // when the gateway published the snapshot, to the millisecond (a gateway before server_time_ms: to the second)
    const serverTime = typeof live.server_time_ms === "number" ? live.server_time_ms / 1000 : live.server_time;
    state.clockOffset = serverTime - Date.now() / 1000;
    // the time of the snapshot, outside the live region: it changes at every refresh
    const updated = $("live-time");
    updated.dateTime = new Date(serverTime * 1000).toISOString();
    updated.textContent = clock(serverTime);
    $("live-updated").hidden = false;
    showCrawls(live);
    showDomains(live);
    showNodes(live);
    showCodes(live);
    drawCharts();
    $("zookeeper").textContent = (live.zookeeper_connected ? "connected" : "not connected") + " · " + (live.zookeeper_node || "");
    $("zookeeper").className = live.zookeeper_connected ? "up" : "down";
    showStatus(live.error ? live.error + readTimeText(live) : "live", Boolean(live.error));
    liveFailures = 0;
    scheduleLive((live.refresh_seconds || 3) * 1000);
  } catch (e) {
    showStatus(e instanceof KeyNeeded ? e.message : "cannot reach the gateway: " + e.message, true);
    if (e instanceof KeyNeeded && !state.live) {
      state.keyNeeded = true;
      showUnread();
    }
    liveFailures++;
    scheduleLive(retryDelay(liveFailures));
  }
}

function scheduleLive(ms) {
  clearTimeout(liveTimer);
  dueWhenShown.delete(refreshLive);
  liveTimer = readIn(ms, refreshLive);
}

const CHECK_TABLE = {
  key: ([name]) => name,
  columns: [
    { text: ([name]) => name },
    { text: ([, check]) => check.status, className: ([, check]) => (check.status === "UP" ? "up" : "down") },
    { text: ([, check]) => check.detail || "" },
  ],
  empty: () => "No check.",
};

let healthFailures = 0;

async function refreshHealth() {
  try {
    // first the checks, which /health shows without a key
    const health = await getJson("/health", 503);
    syncRows($("checks"), Object.entries(health.checks), CHECK_TABLE);
    const index = await getJson("/");
    const badge = $("node-health");
    badge.textContent = index.node_health;
    badge.className = "badge " + index.node_health;
    $("kafka").textContent = index.kafka_connected ? "connected" : "not connected";
    $("kafka").className = index.kafka_connected ? "up" : "down";
    $("redis").textContent = index.redis_connected ? "connected" : "not connected";
    $("redis").className = index.redis_connected ? "up" : "down";
    $("uptime").textContent = seconds(index.uptime_sec);
    $("my-id").textContent = index.my_id;
    healthFailures = 0;
  } catch (e) {
    const badge = $("node-health");
    badge.textContent = e instanceof KeyNeeded ? "key needed" : "gateway unreachable";
    badge.className = e instanceof KeyNeeded ? "badge" : "badge RED";
    healthFailures++;
  }
  // the next read once this one is done: one waiting for a key (or a slow gateway) is never joined by more
  readIn(healthFailures === 0 ? HEALTH_INTERVAL_MS : retryDelay(healthFailures), refreshHealth);
}

// ---------------------------------------------------------------------------------------------
// Start

$("key-cancel").addEventListener("click", () => $("key-dialog").close("cancel"));
$("confirm-cancel").addEventListener("click", () => $("confirm-dialog").close("cancel"));
$("key-button").addEventListener("click", () => {
  // asks again at the next read, which is now
  keyPrompt = null;
  scheduleLive(0);
});
$("key-change").addEventListener("click", async () => {
  keyPrompt = null;
  // a cancel keeps the key the tab has; a key the gateway refuses is forgotten at the next read, and asked for again
  if (await askForKey(false)) {
    await refreshAccess();
    scheduleLive(0);
  }
});
$("crawl-form").crawlid.value = newId().substring(0, 12);
$("crawl-form").addEventListener("submit", submitCrawl);
$("throttle-form").addEventListener("submit", throttleAction);
$("crawl-filter").addEventListener("input", (event) => {
  state.filter = event.target.value.trim();
  if (state.live) {
    showCrawls(state.live);
  }
});
for (const th of document.querySelectorAll("#crawl-table th[data-key]")) {
  th.querySelector("button.sort").addEventListener("click", () => {
    const key = th.dataset.key;
    state.sort = { key, descending: state.sort.key === key ? !state.sort.descending : true };
    if (state.live) {
      showCrawls(state.live);
    }
  });
}
for (const button of document.querySelectorAll("button.span")) {
  button.addEventListener("click", () => {
    state.span = button.dataset.span;
    for (const other of document.querySelectorAll("button.span")) {
      other.classList.toggle("active", other === button);
      other.setAttribute("aria-pressed", String(other === button));
    }
    resetCharts();
    if (state.live) {
      showCodes(state.live);
    }
  });
}
window.matchMedia("(prefers-color-scheme: dark)").addEventListener("change", resetCharts);
let resizeTimer = null;
window.addEventListener("resize", () => {
  clearTimeout(resizeTimer);
  resizeTimer = setTimeout(() => {
    for (const [name, element] of [["pages", $("chart-pages")], ["queues", $("chart-queues")]]) {
      if (state.charts[name]) {
        state.charts[name].setSize({ width: chartWidth(element), height: 220 });
      }
    }
  }, 150);
});

refreshAccess().then(() => {
  refreshHealth();
  refreshLive();
});
