// The Scrapy Cluster web UI: talks only to this gateway's own endpoints (/, /health, /feed, /poll).
"use strict";

const POLL_INTERVAL_MS = 1000;
const POLL_ATTEMPTS = 30;
const HEALTH_INTERVAL_MS = 5000;

const $ = (id) => document.getElementById(id);

function newId() {
  if (window.crypto && crypto.randomUUID) {
    return crypto.randomUUID();
  }
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function cell(row, text, className) {
  const td = row.insertCell();
  td.textContent = text;
  if (className) {
    td.className = className;
  }
  return td;
}

function say(element, text, isError) {
  element.textContent = text;
  element.className = "status" + (isError ? " error" : "");
}

async function postJson(path, body) {
  const response = await fetch(path, {
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

// Feeds a request that carries a uuid and returns its answer, polling for it when the gateway
// answers with a poll_id (the answer took longer than WAIT_FOR_RESPONSE_TIME).
async function ask(request, progress) {
  const fed = await postJson("/feed", request);
  if (fed.envelope.status !== "SUCCESS") {
    throw new Error(failureText(fed.envelope, fed.status));
  }
  const data = fed.envelope.data;
  if (!data || !data.poll_id || Object.keys(data).length !== 1) {
    return data;
  }
  for (let attempt = 1; attempt <= POLL_ATTEMPTS; attempt++) {
    progress("Waiting for the answer (" + attempt + " s)…");
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

async function refreshHealth() {
  try {
    const index = await (await fetch("/")).json();
    const badge = $("node-health");
    badge.textContent = index.node_health;
    badge.className = "badge " + index.node_health;
    $("kafka").textContent = index.kafka_connected ? "connected" : "not connected";
    $("kafka").className = index.kafka_connected ? "up" : "down";
    $("redis").textContent = index.redis_connected ? "connected" : "not connected";
    $("redis").className = index.redis_connected ? "up" : "down";
    $("uptime").textContent = index.uptime_sec + " s";
    $("my-id").textContent = index.my_id;
    const health = await (await fetch("/health")).json();
    const rows = $("checks");
    rows.replaceChildren();
    for (const [name, check] of Object.entries(health.checks)) {
      const row = rows.insertRow();
      cell(row, name);
      cell(row, check.status, check.status === "UP" ? "up" : "down");
      cell(row, check.detail);
    }
  } catch (e) {
    const badge = $("node-health");
    badge.textContent = "gateway unreachable";
    badge.className = "badge RED";
  }
}

function showNodes(stats) {
  const rows = $("nodes");
  rows.replaceChildren();
  for (const service of ["kafka-monitor", "redis-monitor", "rest"]) {
    const nodes = (stats[service] && stats[service].nodes) || {};
    const row = rows.insertRow();
    cell(row, service);
    cell(row, Object.keys(nodes).join(", ") || "none");
    cell(row, String(Object.values(nodes).reduce((sum, ids) => sum + ids.length, 0)), "num");
  }
  const spiders = (stats.crawler && stats.crawler.spiders) || {};
  const row = rows.insertRow();
  cell(row, "crawler");
  const machines = (stats.crawler && stats.crawler.machines) || {};
  cell(row, Object.keys(machines).filter((key) => key !== "count").join(", ") || "none");
  cell(row, String(spiders.total_spider_count || 0), "num");
}

function showQueues(queue) {
  const rows = $("queues");
  rows.replaceChildren();
  $("total-backlog").textContent = queue ? "(total backlog " + (queue.total_backlog || 0) + ")" : "";
  if (!queue) {
    return;
  }
  for (const [key, spider] of Object.entries(queue)) {
    if (!key.startsWith("queue_")) {
      continue;
    }
    for (const domain of spider.domains || []) {
      const row = rows.insertRow();
      cell(row, key.substring("queue_".length));
      cell(row, domain.domain);
      cell(row, String(domain.backlog), "num");
    }
  }
  if (rows.rows.length === 0) {
    cell(rows.insertRow(), "No queued requests").colSpan = 3;
  }
}

async function refreshCluster() {
  const status = $("cluster-status");
  say(status, "Asking the Redis monitor…");
  try {
    const stats = await ask({ appid: "webui", uuid: newId(), stats: "all" }, (text) => say(status, text));
    const error = answerError(stats);
    if (error) {
      say(status, error, true);
      return;
    }
    showNodes(stats);
    showQueues(stats.crawler && stats.crawler.queue);
    say(status, "As of " + new Date((stats.server_time || 0) * 1000).toLocaleTimeString());
  } catch (e) {
    say(status, e.message, true);
  }
}

async function submitCrawl(event) {
  event.preventDefault();
  const form = event.target;
  const status = $("submit-status");
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
      say(status, "Submitted crawl " + request.crawlid + " of " + request.url);
      $("action-form").crawlid.value = request.crawlid;
      $("action-form").appid.value = request.appid;
      form.crawlid.value = newId().substring(0, 12);
    } else {
      say(status, failureText(fed.envelope, fed.status), true);
    }
  } catch (e) {
    say(status, e.message, true);
  }
}

async function crawlAction(event) {
  event.preventDefault();
  const form = event.target;
  const action = event.submitter ? event.submitter.value : "info";
  const status = $("action-status");
  const request = { action, appid: form.appid.value.trim(), spiderid: form.spiderid.value.trim(), uuid: newId() };
  if (form.crawlid.value.trim()) {
    request.crawlid = form.crawlid.value.trim();
  }
  $("action-answer").textContent = "";
  say(status, "Asking the Redis monitor…");
  try {
    const answer = await ask(request, (text) => say(status, text));
    const error = answerError(answer);
    say(status, error || (action === "stop" ? "Stopped; " + answer.total_purged + " requests purged"
        : answer.total_pending + " requests pending"), Boolean(error));
    $("action-answer").textContent = JSON.stringify(answer, null, 2);
  } catch (e) {
    say(status, e.message, true);
  }
}

$("crawl-form").crawlid.value = newId().substring(0, 12);
$("crawl-form").addEventListener("submit", submitCrawl);
$("action-form").addEventListener("submit", crawlAction);
$("refresh-cluster").addEventListener("click", refreshCluster);
refreshHealth();
refreshCluster();
setInterval(refreshHealth, HEALTH_INTERVAL_MS);
