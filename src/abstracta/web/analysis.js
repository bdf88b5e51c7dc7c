// The analysis board (issue 16 §1; README "Analysis board"): the strongest bot's evaluation as
// a bar and a number, its best line listed in notation and drawn on the board, an evaluation
// graph of a finished game, a "Hint" button against the computer (off until switched on), and
// a page for a pasted position (#/analysis/<game>?<options>&position=<text>). Everything is
// computed by the server (POST /api/analysis, /api/analysis/graph); this module only draws.
// The line is drawn over the cells a board marks with data-cell="<id>" (docs/board-modules.md).
import { tokensOf } from "./api.js";
import { h, keepFocus } from "./dom.js";
import { el } from "./svg.js";
import { has, lang, refusal, t } from "./i18n.js";

// Every string this module shows, from the message catalogs (web/i18n/*.json, keys analysis.*).
export const T = {
  get analyse() { return t("analysis.analyse"); },
  get analyseTitle() { return t("analysis.analyse_title"); },
  get hideAnalysis() { return t("analysis.hide_analysis"); },
  get hint() { return t("analysis.hint"); },
  get hintsToggle() { return t("analysis.hints_toggle"); },
  get hintsNote() { return t("analysis.hints_note"); },
  get thinking() { return t("analysis.thinking"); },
  get bestLine() { return t("analysis.best_line"); },
  get noLine() { return t("analysis.no_line"); },
  get cutHidden() { return t("analysis.cut_hidden"); },
  get cutRevealed() { return t("analysis.cut_revealed"); },
  get graphLabel() { return t("analysis.graph_label"); },
  get graphTitle() { return t("analysis.graph_title"); },
  get pastePlaceholder() { return t("analysis.paste_placeholder"); },
  get pasteGo() { return t("analysis.paste_go"); },
  get pasteBox() { return t("analysis.paste_box"); },
  get pasteLead() { return t("analysis.paste_lead"); },
  get valueWords() { return t("analysis.value_words"); },
  get learnedWords() { return t("analysis.learned_words"); },
  learned: (name, v) => t("analysis.learned", { name, v }),
  get busyRetry() { return t("analysis.busy_retry"); },
  get tryNow() { return t("analysis.try_now"); },
  gameOver: (result) => t("analysis.game_over", { result }),
  graphEnd: (result) => t("analysis.graph_end", { result }),
  hintsUsed: (n) => t("analysis.hints_used", { n }),
  hintsBySeat: (list) => t("analysis.hints_by_seat", { list }),
  evalFor: (name) => t("analysis.eval_for", { name }),
  search: (s, n) => t("analysis.search", { s, n }),
  // the search in a player's words ("alpha-beta search, 60,160 positions"); an unknown kind as it is
  searchWords: (s, n) => {
    const kind = String(s || "").split(":")[0];
    const key = `analysis.search_words.${kind}`;
    return has(key) ? t(key, { n, num: Number(n).toLocaleString(lang) }) : t("analysis.search", { s, n });
  },
  pasteTitle: (title) => t("analysis.paste_title", { title }),
  noSuchGame: (name) => t("analysis.no_such_game", { name }),
  seat: (i) => t("analysis.seat", { n: i + 1 }),
};

const css = `
.analysis { margin: .6rem 0; padding: .5rem .6rem; border: 1px solid #ddd3bf; border-radius: 8px; background: var(--card, #fff); }
.analysis h2 { margin-top: 0; }
.an-eval { display: flex; align-items: baseline; gap: .6rem; flex-wrap: wrap; }
.an-bar { position: relative; width: 100%; height: 1.1rem; margin: .2rem 0; background: #2a2622; border-radius: 4px; overflow: hidden; border: 1px solid #8a7a5c; }
.an-fill { position: absolute; left: 0; top: 0; bottom: 0; background: #fbf8f0; transition: width .3s; }
@media (prefers-reduced-motion: reduce) { .an-fill { transition: none; } }
.an-bar::after { content: ""; position: absolute; left: 50%; top: 0; bottom: 0; border-left: 1px dashed #c9bb98; }
.an-number { font: 700 1.3rem ui-monospace, monospace; }
.an-scale { font-size: .8rem; margin: 0; }
.an-line { margin: .3rem 0 0; padding-left: 1.6rem; font: 13px ui-monospace, monospace; }
.an-line li { margin: .1rem 0; }
.an-line .who { font-family: system-ui, sans-serif; font-weight: 600; }
.an-graph { width: 100%; height: 70px; display: block; overflow: visible; margin-top: .4rem; cursor: pointer; background: #fbf8f0; border-radius: 4px; }
.an-graph .mid { stroke: #c9bb98; stroke-dasharray: 3 3; }
.an-graph .cur { stroke: #a8322d; stroke-width: 1.5; }
.an-graph-end { text-align: right; font-size: .8rem; margin: .1rem 0 0; }
.an-row { display: flex; gap: .5rem; align-items: center; flex-wrap: wrap; }
.an-row label { display: inline-flex; gap: .3rem; align-items: center; min-height: 40px; }
.an-target { outline: 3px dashed #c0392b; outline-offset: 2px; }
.an-page { display: grid; grid-template-columns: minmax(0, 1fr) 320px; gap: 1rem; align-items: start; }
.an-page textarea, .an-empty textarea { width: 100%; font: 13px ui-monospace, monospace; }
.an-empty { max-width: 720px; }
.an-busy p { margin: 0 0 .4rem; }
@media (max-width: 760px) { .an-page { grid-template-columns: 1fr; } }
`;

let sheet = null;
function addCss() { // a constructed style sheet: the CSP allows no inline <style>
  if (sheet) return;
  sheet = new CSSStyleSheet();
  sheet.replaceSync(css);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
}

// This browser's own random id, sent with every analysis (X-Abstracta-Session): the server
// counts the analyses running per browser, and a whole club behind one router no longer shares
// two. Kept in localStorage (one browser, every tab: one person), else for this page only.
const SESSION_KEY = "abstracta.session";
let pageSession = null;
function sessionId() {
  const fresh = () => [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, "0")).join("");
  try {
    let id = localStorage.getItem(SESSION_KEY);
    if (!/^[A-Za-z0-9_-]{8,64}$/.test(id || "")) { id = fresh(); localStorage.setItem(SESSION_KEY, id); }
    return id;
  } catch { return pageSession || (pageSession = fresh()); } // private mode
}

// POST with the seat tokens of `matchId` (none: a spectator, or a pasted position). A refusal
// throws an Error with the server's words, its `status` and, for "too busy now" (429), the
// seconds to wait before asking again (`retryAfter`).
async function post(path, body, matchId) {
  const headers = { "Content-Type": "application/json", "X-Abstracta-Session": sessionId() };
  const tokens = matchId ? tokensOf(matchId) : [];
  if (tokens.length) headers.Authorization = `Bearer ${tokens.join(",")}`;
  const res = await fetch(path, { method: "POST", headers, body: JSON.stringify(body) });
  const text = await res.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = text; }
  if (!res.ok) {
    const err = new Error((data && data.error) || `HTTP ${res.status}`);
    err.status = res.status;
    err.data = data;
    err.retryAfter = Number(res.headers.get("Retry-After")) || null;
    throw err;
  }
  return data;
}

// Too many analyses of this browser (or its network) run now: the server's words, that this one
// starts by itself once one of them ends, and a button to try at once. `again()`: asks again.
function busyNote(err, again) {
  return h("div", { class: "an-busy", id: "an-busy", role: "status" },
    h("p", {}, `${refusal(err)}. ${T.busyRetry}`),
    h("button", { type: "button", id: "an-try-now", onclick: again }, T.tryNow));
}
// Milliseconds to wait after a "too busy" refusal before asking again.
const busyWait = (err) => 1000 * Math.min(Math.max(err.retryAfter || 2, 1), 30);

// Tests ask for small budgets (window.abstractaAnalysisScale, a share of the server's budget).
const scale = () => (typeof window.abstractaAnalysisScale === "number" ? window.abstractaAnalysisScale : undefined);

// The value of `answer` for `seat` in people's form: "+0.42", "#5" (wins in 5 actions), "#-5".
export function valueText(answer, seat) {
  const m = answer.mate;
  if (m !== null && m !== undefined && answer.to_move !== null) return `#${seat === answer.to_move ? m : -m}`;
  const v = answer.values[seat];
  const t = (v >= 0 ? "+" : "") + v.toFixed(2);
  return t === "+0.00" || t === "-0.00" ? "0.00" : t;
}

// The evaluation bar, the number and the best line of `answer`, from `seat`'s side.
// A hint in words for a screen reader: the evaluation and the turn the computer would play.
function hintWords(answer, seat, seatName) {
  const words = [`${valueText(answer, seat)} ${T.evalFor(seatName(seat))}.`];
  if (answer.line.length) words.push(`${T.bestLine}: ${seatName(answer.line[0].player)}: ${answer.line[0].actions.join(", ")}.`);
  return words.join(" ");
}

function evalBlock(answer, seat, seats, seatName) {
  const v = answer.values[seat];
  const colour = (seats[seat] && seats[seat].colour) || "#fbf8f0";
  const number = valueText(answer, seat);
  const block = h("div", { class: "an-result", "data-ply": answer.ply, "data-value": v, "data-seat": seat });
  const fill = h("div", { class: "an-fill", style: `width: ${((v + 1) / 2 * 100).toFixed(1)}%; background: ${colour}` });
  block.append(h("div", { class: "an-eval" },
    h("span", { class: "an-number", id: "an-number" }, number),
    h("span", { class: "muted" }, T.evalFor(seatName(seat)))),
  h("div", { class: "an-bar", role: "meter", "aria-valuemin": "-1", "aria-valuemax": "1", "aria-valuenow": v.toFixed(2),
    "aria-label": `${number} ${T.evalFor(seatName(seat))}`, title: T.valueWords }, fill),
  // what the number means, on the page: the bar's tooltip never shows under a finger
  h("p", { class: "muted an-scale", id: "an-scale" }, T.valueWords));
  if (!answer.line.length) {
    block.append(h("p", { class: "muted" }, answer.terminal ? T.noLine : ""));
  } else {
    const list = h("ol", { class: "an-line", id: "an-line", "aria-label": T.bestLine });
    for (const turn of answer.line) {
      list.append(h("li", { "data-player": turn.player, "data-actions": JSON.stringify(turn.actions) },
        h("span", { class: "who" }, seatName(turn.player)), ": ", turn.actions.join(", ")));
    }
    if (answer.line_cut) list.append(h("li", { class: "muted" }, answer.line_cut === "hidden" ? T.cutHidden : T.cutRevealed));
    block.append(h("h3", { class: "muted", style: "font-size: .9rem; margin: .4rem 0 0" }, T.bestLine), list);
  }
  // the game's learned value (a model, no search) where it declares one: the same seat's view
  if (answer.learned && !answer.terminal) {
    const lv = answer.learned[seat];
    block.append(h("p", { class: "muted an-learned", id: "an-learned", "data-value": lv, title: T.learnedWords,
      style: "font-size: .85rem; margin: .2rem 0 0" }, T.learned(seatName(seat), `${lv >= 0 ? "+" : ""}${lv.toFixed(2)}`)));
  }
  // in words on the page; the exact search and budget (for researchers) in the tooltip; a
  // finished position is not searched (it said ", 0 searched")
  if (answer.search) block.append(h("p", { class: "muted an-search", id: "an-search", style: "font-size: .8rem; margin: .2rem 0 0",
    title: T.search(answer.search, answer.iterations) }, T.searchWords(answer.search, answer.iterations)));
  return block;
}

// Draw the line's steps over the board: a path through the cells each action touches and its
// number, in the colour of the seat playing it. Cells are the elements marked data-cell; SVG
// cells get marks in the board's own SVG (they scale and pan with it), other elements an outline.
export function drawLine(boardBox, answer, seats) {
  boardBox.querySelectorAll(".an-mark").forEach((n) => n.remove());
  boardBox.querySelectorAll(".an-target").forEach((n) => { n.classList.remove("an-target"); delete n.dataset.anStep; });
  if (!answer || !answer.line) return 0;
  let step = 0, drawn = 0;
  const ends = new Map(); // one numbered mark per cell: "1·4" where two steps end on it
  for (const turn of answer.line) {
    const colour = (seats[turn.player] && seats[turn.player].colour) || "#c0392b";
    turn.actions.forEach((_, k) => {
      step += 1;
      const cells = (turn.touched[k] || []).map((id) => boardBox.querySelector(`[data-cell="${CSS.escape(id)}"]`)).filter(Boolean);
      const svgCells = cells.filter((c) => c instanceof SVGGraphicsElement && c.ownerSVGElement);
      if (svgCells.length) {
        const svg = svgCells[0].ownerSVGElement;
        const pts = svgCells.map((c) => centre(c, svg)).filter(Boolean);
        if (!pts.length) return;
        const box = svg.viewBox && svg.viewBox.baseVal && svg.viewBox.baseVal.width ? svg.viewBox.baseVal : svg.getBBox();
        const r = Math.max(box.width, box.height) / 36;
        if (pts.length > 1) {
          const g = el("g", { class: "an-mark", "pointer-events": "none", "data-step": step }, svg);
          const points = pts.map((p) => `${p.x},${p.y}`).join(" ");
          // a dark edge under the seat's colour: a white path still shows on a pale board
          el("polyline", { points, fill: "none", stroke: "#222", "stroke-width": r * 0.6, "stroke-linecap": "round",
            "stroke-linejoin": "round", opacity: 0.55 }, g);
          el("polyline", { points, fill: "none", stroke: colour, "stroke-width": r * 0.35, "stroke-linecap": "round",
            "stroke-linejoin": "round" }, g);
        }
        const end = pts[pts.length - 1];
        const key = `${Math.round(end.x)},${Math.round(end.y)}`;
        const mark = ends.get(key);
        if (mark) mark.steps.push(step);
        else ends.set(key, { svg, end, r, colour, steps: [step] });
        drawn += 1;
      } else if (cells.length) {
        for (const c of cells) {
          if (c.classList.contains("an-target")) continue;
          c.classList.add("an-target");
          c.dataset.anStep = String(step);
        }
        drawn += 1;
      }
    });
  }
  for (const { svg, end, r, colour, steps } of ends.values()) {
    const label = steps.join("·");
    const g = el("g", { class: "an-mark", "pointer-events": "none", "data-step": steps[0] }, svg);
    const w = Math.max(r, r * 0.42 * label.length);
    el("rect", { x: end.x - w, y: end.y - r, width: 2 * w, height: 2 * r, rx: r, fill: colour, stroke: "#222",
      "stroke-width": r * 0.12, opacity: 0.92 }, g);
    el("text", { x: end.x, y: end.y + r * 0.38, "text-anchor": "middle", "font-size": r * 1.05, "font-weight": 700,
      "font-family": "sans-serif", fill: contrast(colour), text: label }, g);
  }
  return drawn;
}

function centre(node, svg) {
  try {
    const b = node.getBBox();
    const m = svg.getScreenCTM().inverse().multiply(node.getScreenCTM());
    const p = svg.createSVGPoint();
    p.x = b.x + b.width / 2;
    p.y = b.y + b.height / 2;
    return p.matrixTransform(m);
  } catch { return null; } // not laid out (hidden)
}

function contrast(colour) {
  const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(colour || "");
  if (!m) return "#fff";
  const [r, g, b] = m.slice(1).map((x) => parseInt(x, 16));
  return 0.299 * r + 0.587 * g + 0.114 * b > 150 ? "#222" : "#fff";
}

// The evaluation graph of a finished game: `seat`'s value after each turn (a line per seat in
// 3-4 player games); a click goes to the nearest position. `ended`: how a game the rules did
// not end ended (opts.ended()), else null: its last point is ringed and said to be the end, or
// it reads as a position still in play.
function graphSvg(graph, seat, seats, lastPly, shownPly, onPick, ended) {
  const W = 300, H = 60;
  const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, class: "an-graph", id: "an-graph", role: "img",
    preserveAspectRatio: "none", "aria-label": ended ? `${T.graphLabel}. ${T.graphEnd(ended)}` : T.graphLabel });
  el("title", { text: T.graphTitle }, svg);
  el("line", { x1: 0, y1: H / 2, x2: W, y2: H / 2, class: "mid" }, svg);
  const x = (ply) => (lastPly ? (ply / lastPly) * W : 0);
  const y = (v) => (1 - (v + 1) / 2) * (H - 4) + 2;
  const n = graph.points.length ? graph.points[0].values.length : 0;
  const lines = n > 2 ? [...Array(n).keys()] : [seat];
  for (const s of lines) {
    const colour = n > 2 ? (seats[s] && seats[s].colour) || "#555" : "#23382d";
    const pts = graph.points.map((p) => `${x(p.ply).toFixed(1)},${y(p.values[s]).toFixed(1)}`).join(" ");
    if (n <= 2) el("polygon", { points: `0,${H / 2} ${pts} ${W},${H / 2}`, fill: "#2f6f4f", opacity: 0.18 }, svg);
    el("polyline", { points: pts, fill: "none", stroke: colour, "stroke-width": 1.5, "vector-effect": "non-scaling-stroke" }, svg);
  }
  for (const p of graph.points) {
    el("circle", { cx: x(p.ply), cy: y(p.values[seat]), r: 1.4, fill: "#23382d", "data-ply": p.ply, "data-value": p.values[seat] }, svg);
  }
  const last = graph.points[graph.points.length - 1];
  if (ended && last && last.ply === lastPly) {
    el("circle", { cx: x(last.ply), cy: y(last.values[seat]), r: 3, class: "ended", fill: "none", stroke: "#a8322d",
      "stroke-width": 1.5, "vector-effect": "non-scaling-stroke", "data-ply": last.ply }, svg);
  }
  el("line", { x1: x(shownPly), y1: 0, x2: x(shownPly), y2: H, class: "cur", "vector-effect": "non-scaling-stroke" }, svg);
  svg.addEventListener("click", (ev) => {
    const r = svg.getBoundingClientRect();
    const ply = ((ev.clientX - r.left) / r.width) * lastPly;
    let best = graph.points[0];
    for (const p of graph.points) if (Math.abs(p.ply - ply) < Math.abs(best.ply - ply)) best = p;
    if (best) onPick(best.ply);
  });
  return svg;
}

// ---------------------------------------------------------------------------- match page
// The panel of the match page. `opts`: {id, getView, boardBox, seatName, stepTo(ply),
// shownPly(), ended(), open, kept}; ended(): how a game the rules did not end ended (a
// resignation, a flag) in the page's words, else null; open: the panel starts open; kept: the
// answers of the panel drawn before (its kept()) for the same position, which a language
// switch hands on rather than ask the server again (a hint asked again counts twice). Call
// update() after every draw of the page.
export function analysisPanel(opts) {
  addCss();
  const { id, boardBox, seatName } = opts;
  const was = opts.kept || null;
  const node = h("section", { class: "analysis", id: "analysis", hidden: true });
  const cache = new Map(was ? was.cache : []); // ply -> answer (the same position always gets the same answer)
  // plies whose analysis was refused: asked again only when the reader presses Analyse again,
  // not by the redraw the refusal itself causes (that asked the server in a loop); a refusal
  // for now (429: too many analyses running) is `busy` instead, and asked again after its wait
  const failed = new Set();
  let open = !!opts.open, graph = was ? was.graph : null, graphAsked = !!graph, pending = null,
    hintAnswer = was ? was.hintAnswer : null, error = null, busy = null, busyTimer = null;
  // after a "too busy" refusal: wait, then ask again (a press of "Try now": at once)
  const waitAndRetry = (err) => {
    busy = err;
    clearTimeout(busyTimer);
    busyTimer = setTimeout(retryNow, busyWait(err));
  };
  function retryNow() {
    clearTimeout(busyTimer);
    busy = null;
    if (node.isConnected) update(); // (a page left meanwhile asks nothing)
  }
  const hintKey = `abstracta.hints.${id}`;
  const hintsOn = () => { try { return localStorage.getItem(hintKey) === "1"; } catch { return false; } };

  async function fetchPly(ply) {
    // one position at a time: stepping quickly asks only for where the replay stops
    // (update() asks again for the shown ply when this answer arrives)
    if (cache.has(ply) || failed.has(ply) || pending !== null) return;
    pending = ply;
    error = null;
    try {
      cache.set(ply, await post("/api/analysis", { match_id: id, ply, scale: scale() }, id));
    } catch (e) {
      if (e.status === 429) waitAndRetry(e);
      else { error = e; failed.add(ply); }
    }
    pending = null;
    update();
  }
  async function fetchGraph() {
    if (graphAsked) return;
    graphAsked = true;
    try { graph = await post("/api/analysis/graph", { match_id: id, scale: scale() }, id); } catch (e) {
      if (e.status === 429) { graphAsked = false; waitAndRetry(e); } else error = e;
    }
    update();
  }
  async function askHint(view) {
    // pressed with a key: the button is greyed while the computer thinks, and the focus comes
    // back to it with the answer, which is said aloud (the marks on the board are not)
    const pressed = document.activeElement && document.activeElement.id === "hint";
    pending = "hint";
    error = null;
    update();
    try {
      hintAnswer = await post("/api/analysis", { match_id: id, ply: view.ply, hint: true, scale: scale() }, id);
    } catch (e) { error = e; }
    pending = null;
    update();
    if (pressed) {
      const again = node.querySelector("#hint");
      if (again && !again.disabled) again.focus();
    }
    if (hintAnswer && !error) {
      boardInSight(boardBox);
      if (opts.say) opts.say(hintWords(hintAnswer, mySeat(opts.getView()), seatName));
    }
  }
  let lastKey = null;
  function update() {
    const view = opts.getView();
    const over = view.status === "over";
    const hints = !over && vsComputer(view);
    node.hidden = !over && !hints;
    if (node.hidden) { drawLine(boardBox, null, []); return; }
    const seats = view.seats || [];
    const seat = mySeat(view);
    const shown = opts.shownPly();
    let answer = null;
    if (over && open) {
      answer = cache.get(shown) || null;
      if (!busy) {
        if (!answer) fetchPly(shown);
        fetchGraph();
      }
    } else if (hints && hintAnswer && hintAnswer.ply === view.ply && shown === view.ply) {
      answer = hintAnswer;
    }
    const key = JSON.stringify([over, open, shown, answer && answer.ply, !!answer, graph && graph.points.length, pending,
      error && error.message, busy && busy.message, hints && hintsOn(), view.ply, view.hints, view.human_to_move, view.thinking]);
    if (key !== lastKey) {
      lastKey = key;
      const focus = keepFocus(node); // the checkbox, Hint or Analyse pressed with a key
      node.replaceChildren(h("h2", {}, T.analyseTitle));
      if (over) {
        node.append(...analyseRow(view, open, seatName, () => { open = !open; failed.clear(); error = null; update(); }));
      } else {
        node.append(...hintsRow(view, hintsOn(), {
          setHints: (on) => { try { localStorage.setItem(hintKey, on ? "1" : "0"); } catch { /* private mode */ } update(); },
          canAsk: pending !== "hint" && shown === view.ply, ask: () => askHint(view) }));
      }
      if (pending !== null && (open || pending === "hint")) node.append(h("p", { class: "muted", id: "an-wait" }, T.thinking));
      if (error) node.append(h("p", { class: "error" }, refusal(error)));
      if (busy && open) node.append(busyNote(busy, retryNow));
      // the last position of a game resigned or lost on time: the game is over, whatever the
      // position's value (as `abstracta analyse --record` says first); it is still analysed,
      // since the rules had not ended it
      const ended = over && answer && answer.ply === view.ply && opts.ended ? opts.ended() : null;
      if (ended) node.append(h("p", { id: "an-ended" }, T.gameOver(ended)));
      if (answer) node.append(evalBlock(answer, seat, seats, seatName));
      if (over && open && graph && graph.points.length) {
        const ended = opts.ended ? opts.ended() : null;
        node.append(graphSvg(graph, seat, seats, view.ply, shown, (ply) => opts.stepTo(ply), ended));
        if (ended) node.append(h("p", { class: "muted an-graph-end", id: "an-graph-end" }, T.graphEnd(ended)));
      }
      focus();
    }
    // the board may have been drawn again: put the line back on it
    const marked = boardBox.querySelector(".an-mark, .an-target");
    const want = answer ? `${answer.ply}:${shown}` : "";
    if (boardBox.dataset.anLine !== want || (answer && !marked)) {
      boardBox.dataset.anLine = want;
      drawLine(boardBox, answer, seats);
    }
  }
  return { node, update, isOpen: () => open, kept: () => ({ cache, graph, hintAnswer }) };
}

// The seat whose side an evaluation takes: the one person seat played here, else the viewer's.
function mySeat(view) {
  const mine = (view.my_seats || []).filter((i) => view.players[i] === "human");
  return mine.length === 1 ? mine[0] : view.viewer !== null && view.viewer !== undefined ? view.viewer : 0;
}

// A game of this browser's people against the computer (hints are offered in no other).
function vsComputer(view) {
  return view.players.some((p) => p !== "human") &&
    view.players.every((p, i) => p !== "human" || (view.my_seats || []).includes(i)) &&
    view.players.some((p, i) => p === "human" && (view.my_seats || []).includes(i));
}

// A hint's marks are drawn on the board: on a phone the Hint button is below it, the board
// scrolled out of sight, so bring it back (a board already in sight stays where it is).
function boardInSight(boardBox) {
  const r = boardBox.getBoundingClientRect();
  const seen = Math.min(r.bottom, window.innerHeight) - Math.max(r.top, 0);
  if (seen >= Math.min(r.height, window.innerHeight) - 2) return; // all of it (or a screenful) in sight
  const calm = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  boardBox.scrollIntoView({ block: "start", behavior: calm ? "auto" : "smooth" });
}

// A finished game's panel head: Analyse (or Hide analysis; `toggle()` on a press) and the hints
// each seat asked for during the game. Returns the nodes.
function analyseRow(view, open, seatName, toggle) {
  const nodes = [h("div", { class: "an-row" }, h("button", { type: "button", id: "analyse", "aria-expanded": String(open),
    class: open ? null : "primary", onclick: toggle }, open ? T.hideAnalysis : T.analyse))];
  const used = (view.hints || []).map((n, i) => (n ? `${seatName(i)} ${n}` : null)).filter(Boolean);
  if (used.length) nodes.push(h("p", { class: "muted", id: "hints-used" }, T.hintsBySeat(used.join(", "))));
  return nodes;
}

// A game in play against the computer: the hints checkbox (`on`; `setHints(on)` on a change),
// the Hint button where hints are on (pressable on this page's turn when `canAsk`; `ask()`),
// the note on what a hint costs and the hints used so far. Returns the nodes.
function hintsRow(view, on, { setHints, canAsk, ask }) {
  const box = h("input", { type: "checkbox", id: "hints-toggle", checked: on || null, onchange: (ev) => setHints(ev.target.checked) });
  const row = h("div", { class: "an-row" }, h("label", { for: "hints-toggle" }, box, T.hintsToggle));
  if (on) {
    const myTurn = view.human_to_move && (view.my_seats || []).includes(view.to_move) && !view.thinking;
    row.append(h("button", { type: "button", id: "hint", class: "primary", disabled: !myTurn || !canAsk, onclick: ask }, T.hint));
  }
  const nodes = [row, h("p", { class: "muted", style: "font-size: .85rem; margin: .2rem 0" }, T.hintsNote)];
  const used = view.hints ? (view.my_seats || []).reduce((a, i) => a + (view.hints[i] || 0), 0) : 0;
  if (used) nodes.push(h("p", { class: "muted", id: "hints-used" }, T.hintsUsed(used)));
  return nodes;
}

// ---------------------------------------------------------------------------- new-game page
// A box that opens the analysis page for a pasted position of game `name` with the options
// the form shows (`readOptions()`).
export function analysisLink(name, readOptions) {
  addCss();
  const area = h("textarea", { rows: 2, id: "paste-position", placeholder: T.pastePlaceholder, "aria-label": T.pastePlaceholder });
  const go = () => {
    const q = new URLSearchParams(readOptions());
    if (area.value.trim()) q.set("position", area.value.trim());
    location.hash = `#/analysis/${encodeURIComponent(name)}?${q.toString()}`;
  };
  return h("details", { class: "import", id: "paste-box" }, h("summary", {}, T.pasteBox), area,
    h("div", { class: "row" }, h("button", { type: "button", id: "paste-go", onclick: go }, T.pasteGo)));
}

// ---------------------------------------------------------------------------- pasted position
// "#/analysis/<game>?<option>=<value>&…&position=<text>": the position drawn by the game's
// board module, its evaluation and best line. `helpers`: {games(), boardModule(url)}.
export async function analysisPage(app, hash, helpers) {
  addCss();
  const rest = hash.replace(/^#\/?analysis\/?/, "");
  const [path, query = ""] = rest.split("?");
  const name = decodeURIComponent(path || "");
  const params = new URLSearchParams(query);
  const position = params.get("position") || "";
  params.delete("position");
  const options = Object.fromEntries(params.entries());
  const list = await helpers.games();
  const g = list.find((x) => x.name === name);
  if (!g) {
    app.append(h("h1", {}, T.analyseTitle), h("p", { class: "error", id: "not-found" }, T.noSuchGame(name)));
    return;
  }
  document.title = `${T.pasteTitle(t(g.title_key, {}, g.title))} — abstracta`;
  app.append(h("h1", {}, T.pasteTitle(t(g.title_key, {}, g.title))), h("p", { class: "lead" }, T.pasteLead));
  const area = h("textarea", { rows: 3, id: "an-position", "aria-label": T.pastePlaceholder, placeholder: T.pastePlaceholder }, position);
  const err = h("p", { class: "error", id: "an-error", hidden: true });
  const boardBox = h("div", { class: "boardbox", id: "board" });
  const side = h("div", { class: "analysis", id: "analysis" });
  const go = () => {
    const q = new URLSearchParams(options);
    q.set("position", area.value.trim());
    location.hash = `#/analysis/${encodeURIComponent(name)}?${q.toString()}`;
  };
  const goRow = h("div", { class: "row" }, h("button", { type: "button", class: "primary", id: "an-go", onclick: go }, T.pasteGo));
  if (!position.trim()) {
    // nothing pasted yet: the box to paste into, not an empty board beside an empty analysis
    area.rows = 5;
    app.append(h("div", { class: "an-empty" }, area, goRow));
    area.focus();
    return;
  }
  app.append(h("div", { class: "an-page" }, h("div", {}, boardBox, err), h("aside", {}, side, area, goRow)));
  // the board comes with the answer (its structured view): no empty framed box before it
  boardBox.hidden = true;
  let answer, detail;
  const q = new URLSearchParams(options).toString();
  for (;;) {
    side.replaceChildren(h("p", { class: "muted", id: "an-wait" }, T.thinking));
    try {
      [answer, detail] = await Promise.all([
        post("/api/analysis", { game: name, options, position, scale: scale() }),
        fetch(`/api/games/${encodeURIComponent(name)}${q ? "?" + q : ""}`).then((r) => r.json())]);
      break;
    } catch (e) {
      if (!app.isConnected) return; // left meanwhile
      if (e.status !== 429) {
        side.hidden = true; // the refusal says it all, under the box to paste into
        err.textContent = refusal(e);
        err.hidden = false;
        return;
      }
      // too many analyses running now (this browser's in other tabs, or its network's): said,
      // and asked again once the server's wait is over, or at once on "Try now"
      await new Promise((resume) => {
        const timer = setTimeout(resume, busyWait(e));
        side.replaceChildren(busyNote(e, () => { clearTimeout(timer); resume(); }));
      });
      if (!app.isConnected) return;
    }
  }
  boardBox.hidden = false;
  const seats = detail.seats || [];
  const seatName = (i) => (seats[i] && seats[i].name) || T.seat(i);
  const seat = answer.viewer !== null ? answer.viewer : 0;
  side.replaceChildren(h("h2", {}, T.analyseTitle), evalBlock(answer, seat, seats, seatName));
  const mod = await helpers.boardModule(g.board_module);
  if (mod && mod.render && answer.struct) {
    const ctx = { struct: answer.struct, interactive: false, play: () => {}, controls: h("div"), live: false,
      palette: detail.board || {}, seats, seatName, ended: null, onKey: () => {}, say: () => {}, refresh: () => {} };
    mod.render(boardBox, ctx);
    drawLine(boardBox, answer, seats);
  } else {
    boardBox.append(h("pre", { class: "position" }, position));
  }
}
