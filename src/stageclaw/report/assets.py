"""The CSS and JavaScript inlined into report.html (kept in Python so they ship with the package as code)."""

CSS = r"""
:root { --fg: #1d2330; --muted: #6b7280; --line: #e3e6ea; --bg: #fff; --soft: #f6f7f9; --bad: #b42318;
        --good: #1e7b34; --accent: #2f5fa7; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg);
       background: var(--bg); }
header { padding: 14px 24px 8px; border-bottom: 1px solid var(--line); position: sticky; top: 0; background: #fffe;
         z-index: 5; }
header h1 { margin: 0 0 4px; font-size: 19px; }
nav a { margin-right: 14px; color: var(--accent); text-decoration: none; }
.meta, .muted { color: var(--muted); }
.small { font-size: 12px; }
main, #viewer { padding: 8px 24px 60px; max-width: 1500px; }
section { margin-top: 26px; scroll-margin-top: 96px; }
.step { scroll-margin-top: 110px; }
h2 { font-size: 17px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
h3 { font-size: 14px; margin: 18px 0 6px; }
table { border-collapse: collapse; margin: 6px 0 10px; }
th, td { padding: 4px 8px; border-bottom: 1px solid var(--line); text-align: left; vertical-align: top; }
th { background: var(--soft); font-weight: 600; white-space: nowrap; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
table.sortable th { cursor: pointer; }
table.sortable th:hover { background: #e9edf3; }
.ci { display: block; color: var(--muted); font-size: 11px; white-space: nowrap; }
.scroll td:first-child { min-width: 12em; }
td.agent { white-space: nowrap; }
.scroll { overflow-x: auto; }
.charts { display: flex; flex-wrap: wrap; gap: 20px; }
figure { margin: 0; flex: 1 1 560px; max-width: 820px; }
figcaption { color: var(--muted); font-size: 12px; margin-bottom: 4px; }
svg.chart { font-size: 11px; font-family: inherit; }
svg.chart .plot { fill: #fbfbfc; stroke: var(--line); }
svg.chart .grid { stroke: #eceef1; }
svg.chart .axis { fill: var(--muted); }
svg.chart .pt:hover text { font-weight: 700; }
.cell { min-width: 78px; }
.cell b { font-size: 13px; }
.badge { display: inline-block; padding: 0 6px; border-radius: 9px; font-size: 11px; background: #e9edf3;
         margin-left: 4px; white-space: nowrap; }
.badge.bad { background: #fde3e1; color: var(--bad); }
.badge.good { background: #dcf3e2; color: var(--good); }
.badge.warn { background: #fff1c2; color: #7a5a00; }
.filters { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin: 6px 0; }
.filters select, .filters input { font: inherit; padding: 3px 6px; }
tr.click { cursor: pointer; }
tr.click:hover { background: #f3f6fb; }
a.trial { text-decoration: none; margin-right: 2px; font-weight: 700; }
a.trial.ok { color: var(--good); }
a.trial.no { color: var(--bad); }
a.trial.na { color: var(--muted); }
button { font: inherit; padding: 3px 10px; cursor: pointer; }
.episode h2 { border: 0; margin: 8px 0 4px; }
.epnav a { margin-right: 14px; }
pre { background: var(--soft); border: 1px solid var(--line); border-radius: 4px; padding: 6px 8px; margin: 4px 0;
      white-space: pre-wrap; word-break: break-word; font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace;
      max-height: 420px; overflow: auto; }
pre.prompt { font: inherit; max-height: none; }
pre.error { background: #fff4f3; border-color: #f3c3bf; }
.split { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 18px; align-items: start; }
#diff { position: sticky; top: 96px; max-height: calc(100vh - 106px); overflow: auto; }
@media (max-width: 1000px) {
  .split { grid-template-columns: minmax(0, 1fr); }
  #diff { position: static; max-height: none; }
}
.inline { margin: 3px 0; word-break: break-word; }
.inline code { font-size: 12px; }
.step, .chg { border: 1px solid var(--line); border-radius: 5px; padding: 6px 8px; margin-bottom: 6px; }
.step.err { border-color: #f3c3bf; background: #fffafa; }
.step.flash { outline: 3px solid #f5c542; }
.step-h .ms { float: right; color: var(--muted); font-size: 12px; }
.said { color: #374151; font-style: italic; border-left: 3px solid #c7d2fe; padding-left: 8px; margin-bottom: 4px;
        white-space: pre-wrap; }
.chg.collateral { border-color: #e49b94; background: #fff6f5; }
.chg .op { font-weight: 700; display: inline-block; width: 14px; }
.chg.added .op { color: var(--good); }
.chg.removed .op { color: var(--bad); }
.chg.modified .op { color: #a15c00; }
.ba { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 6px; }
.ba pre.before { background: #fff4f3; }
.ba pre.after { background: #f1fbf3; }
td.pass { color: var(--good); font-weight: 700; }
td.fail { color: var(--bad); font-weight: 700; }
td.none { color: var(--muted); }
details summary { cursor: pointer; color: var(--accent); }
dl.modes { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; }
dl.modes dt { font-weight: 600; }
dl.modes dd { margin: 0; color: var(--muted); }
"""

JS = r"""
(() => {
"use strict";
const IDX = JSON.parse(document.getElementById("index").textContent);
const E = IDX.episodes;
const overview = document.getElementById("overview");
const viewer = document.getElementById("viewer");
const F = {agent: "", task: "", outcome: "", mode: "", q: ""};
let shown = 200, viewToken = 0, savedScroll = null;

function h(tag, attrs, ...kids) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v == null || v === false) continue;
    if (k === "class") el.className = v;
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const kid of kids.flat(Infinity)) {
    if (kid != null && kid !== false) el.append(kid instanceof Node ? kid : String(kid));
  }
  return el;
}
const label = (mode) => (mode ? IDX.modes[mode] || mode : "");
const fmt = (x, d) => (x == null ? "–" : Number(x).toFixed(d));
// Values come as they were (pretty-printed here) or, when long, as JSON text already cut to size.
const show = (v) => (typeof v === "string" ? v : JSON.stringify(v, null, 1));

function outcome(e) {
  if (e.ok === true) return "success";
  if (e.ok === false) return "failed";
  return e.st;
}
function matches(e) {
  if (F.agent !== "" && e.a !== +F.agent) return false;
  if (F.task !== "" && e.t !== +F.task) return false;
  if (F.outcome && outcome(e) !== F.outcome) return false;
  if (F.mode && e.m !== F.mode) return false;
  if (F.q && !(IDX.tasks[e.t] + " " + IDX.agents[e.a]).toLowerCase().includes(F.q.toLowerCase())) return false;
  return true;
}
function filtered() { return E.filter(matches); }

function successMark(e) {
  if (e.ok === true) return h("span", {class: "badge good"}, "yes");
  if (e.ok === false) return h("span", {class: "badge bad"}, "no");
  return h("span", {class: "badge warn"}, e.st);
}
function row(e) {
  const open = () => { location.hash = "ep/" + e.i; };
  return h("tr", {class: "click", onclick: open},
    h("td", {}, h("a", {href: "#ep/" + e.i}, IDX.tasks[e.t])),
    h("td", {}, IDX.agents[e.a]), h("td", {class: "n"}, e.n), h("td", {}, e.st), h("td", {}, successMark(e)),
    h("td", {class: "n"}, fmt(e.sc, 1)), h("td", {}, label(e.m)),
    h("td", {class: "n"}, e.c), h("td", {class: "n"}, e.e), h("td", {class: "n"}, fmt(e.w, 1)));
}
function renderList() {
  const rows = filtered();
  document.querySelector("#episode-table tbody").replaceChildren(...rows.slice(0, shown).map(row));
  document.getElementById("episode-count").textContent =
    `${rows.length} of ${E.length} episodes` + (rows.length > shown ? `, showing the first ${shown}` : "");
  document.getElementById("more").hidden = rows.length <= shown;
}
function setupFilters() {
  const opts = (sel, items) => sel.append(...items.map(([v, t]) => h("option", {value: v}, t)));
  opts(document.getElementById("f-agent"), IDX.agents.map((a, i) => [i, a]));
  opts(document.getElementById("f-task"), IDX.tasks.map((t, i) => [i, t]));
  opts(document.getElementById("f-mode"), Object.entries(IDX.modes));
  for (const key of ["agent", "task", "outcome", "mode", "q"]) {
    const el = document.getElementById("f-" + key);
    el.addEventListener("input", () => { F[key] = el.value; shown = 200; renderList(); });
  }
  document.getElementById("more").addEventListener("click", () => { shown += 500; renderList(); });
}

async function page(i) {
  const el = document.getElementById("ep" + i);
  const bytes = Uint8Array.from(atob(el.textContent.trim()), (c) => c.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return JSON.parse(await new Response(stream).text());
}

function focusStep(n) {
  const el = document.getElementById("step-" + n);
  if (!el) return;
  el.scrollIntoView({block: "center"});
  el.classList.add("flash");
  setTimeout(() => el.classList.remove("flash"), 1600);
}
function stepLink(ref) {
  return h("a", {href: "#", onclick: (ev) => { ev.preventDefault(); focusStep(ref.index); }}, "step " + ref.index);
}
function diagnosis(d) {
  if (!d) return "";
  const out = [h("span", {class: "badge bad"}, label(d.verdict))];
  if (d.first_step && d.first_step.via === "app") {
    out.push(" never touched; the first step in its app is ", stepLink(d.first_step), ` (${d.first_step.tool})`);
  } else if (d.first_step) {
    out.push(" first touched at ", stepLink(d.first_step), ` (${d.first_step.tool}, in its ${d.first_step.via})`);
  } else {
    out.push(" no step touched it");
  }
  if (d.first_action && (!d.first_step || d.first_action.index !== d.first_step.index)) {
    out.push("; acted on at ", stepLink(d.first_action), ` (${d.first_action.tool})`);
  }
  if (d.entities.length) out.push(h("div", {class: "muted small"}, "checks " + d.entities.join(", ")));
  return out;
}
function text(label, raw) {
  if (raw === undefined) return null;
  const compact = typeof raw === "string" ? raw : JSON.stringify(raw);
  if (compact.length <= 100 && !compact.includes("\n")) {
    return h("div", {class: "inline"}, h("span", {class: "muted small"}, label + " "), h("code", {}, compact));
  }
  const value = show(raw);
  if (value.length <= 300) return h("div", {}, h("span", {class: "muted small"}, label), h("pre", {}, value));
  return h("details", {}, h("summary", {}, `${label} (${value.length} characters)`), h("pre", {}, value));
}
function step(s, n) {
  const flags = [];
  if (!s.ok) flags.push(h("span", {class: "badge bad"}, s.kind || "error"));
  if (s.recovered === true) flags.push(h("span", {class: "badge good"}, "recovered"));
  if (s.recovered === false) flags.push(h("span", {class: "badge bad"}, "unrecovered"));
  if (s.fault) flags.push(h("span", {class: "badge warn"}, "fault: " + s.fault));
  return h("div", {class: "step " + (s.ok ? "ok" : "err"), id: "step-" + n},
    s.said ? h("div", {class: "said"}, s.said) : null,
    h("div", {class: "step-h"}, h("b", {}, "#" + n + " "), h("code", {}, s.tool), flags,
      h("span", {class: "ms"}, s.ms == null ? "" : fmt(s.ms, 1) + " ms")),
    text("arguments", s.args),
    s.ok ? text("result", s.out) : h("pre", {class: "error"}, show(s.out)));
}
function change(c) {
  const op = {added: "+", removed: "−", modified: "~"}[c.op] || c.op;
  let body = null;
  if (c.op === "modified") {
    body = h("div", {class: "ba"},
      h("pre", {class: "before"}, show(c.before)), h("pre", {class: "after"}, show(c.after)));
  } else {
    body = text(c.op === "added" ? "added" : "removed", c.op === "added" ? c.after : c.before);
  }
  return h("div", {class: `chg ${c.op}${c.collateral ? " collateral" : ""}`},
    h("div", {}, h("span", {class: "op"}, op), h("code", {}, c.path),
      c.collateral ? h("span", {class: "badge bad"}, "collateral") : null),
    body);
}
function rubric(items) {
  return h("table", {class: "rubric"},
    h("thead", {}, h("tr", {},
      ["item", "result", "weight", "stage", "reason", "diagnosis"].map((c) => h("th", {}, c)))),
    h("tbody", {}, items.map((it) => {
      const res = it.passed === true ? ["pass", "✓"] : it.passed === false ? ["fail", "✗"] : ["none", "–"];
      return h("tr", {},
        h("td", {}, h("b", {}, it.id), it.critical ? h("span", {class: "badge"}, "critical") : null,
          h("div", {class: "muted small"}, it.description)),
        h("td", {class: res[0]}, res[1]), h("td", {class: "n"}, it.weight), h("td", {}, it.stage),
        h("td", {}, it.reason), h("td", {}, diagnosis(it.diagnosis)));
    })));
}
function renderEpisode(e, p) {
  const list = filtered();
  const at = list.indexOf(e);
  const nav = h("div", {class: "epnav"}, h("a", {href: "#episodes"}, "← all episodes"),
    at > 0 ? h("a", {href: "#ep/" + list[at - 1].i}, "‹ previous") : null,
    at >= 0 && at < list.length - 1 ? h("a", {href: "#ep/" + list[at + 1].i}, "next ›") : null);
  const collateral = p.changes.filter((c) => c.collateral);
  const other = (e.ms || []).filter((m) => m !== e.m);
  return h("div", {class: "episode"}, nav,
    h("h2", {}, `${IDX.tasks[e.t]} · ${IDX.agents[e.a]} · trial ${e.n}`),
    h("div", {}, successMark(e), h("span", {class: "badge"}, "status " + e.st),
      h("span", {class: "badge"}, "score " + fmt(e.sc, 1)),
      e.m ? h("span", {class: "badge bad", title: "primary failure mode"}, label(e.m)) : null,
      other.map((m) => h("span", {class: "badge", title: "also"}, label(m))),
      e.fm ? h("span", {class: "muted small"}, ` run's failure_mode: ${e.fm}`) : null),
    h("p", {class: "muted"}, `${e.c} tool calls · ${e.e} errors (${e.rc} recovered) · ` +
      (e.tk == null ? "no token usage" : `${e.tk} tokens`) + ` · cost ${e.$ == null ? "unpriced" : "$" + e.$}` +
      ` · ${fmt(e.w, 1)} s`),
    h("h3", {}, "Prompt"), h("pre", {class: "prompt"}, p.prompt),
    h("h3", {}, "Final answer"), p.final_answer ? h("pre", {}, p.final_answer) : h("p", {class: "muted"}, "(none)"),
    p.error ? h("pre", {class: "error"}, p.error) : null,
    h("h3", {}, "Rubric"), h("div", {class: "scroll"}, rubric(p.items)),
    h("div", {class: "split"},
      h("div", {id: "trajectory"}, h("h3", {}, `Trajectory · ${p.steps.length} steps`),
        p.malformed.map((m) => h("pre", {class: "error"},
          `${m.tool}: ${m.message} (${m.recovered ? "recovered" : "unrecovered"}; never reached the tools)`)),
        p.steps.length ? p.steps.map((s, j) => step(s, j + 1)) : h("p", {class: "muted"}, "no tool calls")),
      h("div", {id: "diff"}, h("h3", {}, `State diff · ${p.changes.length} changes`),
        h("h3", {}, `Collateral changes · ${collateral.length}`),
        collateral.length ? collateral.map((c) => h("div", {}, h("code", {}, `${c.op} ${c.path}`)))
          : h("p", {class: "muted"}, "none"),
        h("h3", {}, "All changes"),
        p.changes.length ? p.changes.map(change) : h("p", {class: "muted"}, "nothing changed"))));
}
async function showEpisode(i) {
  const token = ++viewToken;
  const e = E[i];
  if (!e) { viewer.replaceChildren(h("p", {}, "no such episode")); return; }
  viewer.replaceChildren(h("p", {class: "muted"}, "opening…"));
  let p;
  try { p = await page(i); } catch (err) {
    viewer.replaceChildren(h("p", {class: "bad"}, "cannot open this episode: " + err));
    return;
  }
  if (token === viewToken) viewer.replaceChildren(renderEpisode(e, p));
}
function route() {
  const m = location.hash.match(/^#ep\/(\d+)$/);
  if (m) {
    if (!overview.hidden) savedScroll = window.scrollY;
    overview.hidden = true;
    viewer.hidden = false;
    window.scrollTo(0, 0);
    showEpisode(+m[1]);
    return;
  }
  viewToken++;
  viewer.hidden = true;
  viewer.replaceChildren();
  const back = overview.hidden;
  overview.hidden = false;
  const target = location.hash.length > 1 && document.getElementById(location.hash.slice(1));
  if (back && savedScroll != null && ["", "#", "#episodes"].includes(location.hash)) window.scrollTo(0, savedScroll);
  else if (target) target.scrollIntoView();
}
function sortable(table) {
  for (const th of table.tHead.rows[0].cells) {
    th.addEventListener("click", () => {
      const col = th.cellIndex, dir = th.dataset.dir === "asc" ? -1 : 1;
      th.dataset.dir = dir === 1 ? "asc" : "desc";
      const key = (tr) => {
        const td = tr.cells[col];
        const v = td.dataset.v;
        return v === undefined ? td.textContent : v === "" ? -Infinity : Number(v);
      };
      const rows = [...table.tBodies[0].rows];
      rows.sort((a, b) => {
        const x = key(a), y = key(b);
        return (typeof x === "number" && typeof y === "number" ? x - y : String(x).localeCompare(String(y))) * dir;
      });
      table.tBodies[0].append(...rows);
    });
  }
}
document.querySelectorAll("table.sortable").forEach(sortable);
setupFilters();
renderList();
window.addEventListener("hashchange", route);
route();
})();
"""
