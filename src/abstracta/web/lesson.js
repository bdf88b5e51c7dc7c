// A game's first lesson (issue 39): "#/lesson/<game>/<step>", a few positions each with a task.
// The game's own board module draws each position and sends what the learner picks; the server
// plays it through the rules (POST /api/games/<game>/lessons/<lesson>/<step>) and says whether
// the turn did the task, and why not. Nothing here names a game or knows a rule of one.
import { api } from "./api.js";
import { h } from "./dom.js";
import { fmt, refusal, t } from "./i18n.js";

// which games this browser has played or learnt: {game: "played" | "done" | "dismissed"}
const KEY = "abstracta.lessons";

function seen() {
  try { return JSON.parse(localStorage.getItem(KEY) || "{}") || {}; } catch { return {}; }
}

// Remember that this browser knows `name` (a game started, the lesson finished or declined):
// its lesson is no longer offered.
export function markKnown(name, how = "played") {
  const all = seen();
  if (all[name] && how === "played") return;
  all[name] = how;
  try { localStorage.setItem(KEY, JSON.stringify(all)); } catch { /* private mode: offered again */ }
}

// The offer on a game's pages to someone who has not played it here: the lesson's size and a
// link to it, or null (played, finished, declined, or no lesson).
export function lessonOffer(g) {
  if (!g || !g.lessons || !g.lessons.length || seen()[g.name]) return null;
  const title = t(g.title_key, {}, g.title);
  const box = h("aside", { class: "lesson-offer", id: "lesson-offer", "aria-label": t("lesson.offer_label", { game: title }) });
  const no = h("button", { type: "button", id: "lesson-no", onclick: () => { markKnown(g.name, "dismissed"); box.remove(); } },
    t("lesson.offer_dismiss"));
  box.append(h("p", {}, t("lesson.offer", { game: title, n: g.lessons[0].steps })),
    h("p", { class: "row" }, h("a", { href: `#/lesson/${g.name}/1`, class: "button primary", id: "lesson-go" }, t("lesson.offer_start")), no));
  return box;
}

// "#/lesson/<game>/<n>": step n (from 1) of the game's first lesson. `helpers`: {games(), boardModule(url)}.
export async function lessonPage(app, name, stepText, helpers) {
  const list = await helpers.games();
  const g = list.find((x) => x.name === name);
  if (!g) throw new Error(t("rules.no_game_named", { name }));
  const title = t(g.title_key, {}, g.title);
  const [lessons, detail] = await Promise.all([api(`/api/games/${encodeURIComponent(name)}/lessons`),
    api(`/api/games/${encodeURIComponent(name)}`)]);
  if (!app.isConnected) return;
  document.title = `${t("lesson.doc_title", { game: title })} — abstracta`;
  const lesson = lessons[0];
  if (!lesson) {
    app.append(h("h1", {}, t("lesson.doc_title", { game: title })), h("p", { id: "lesson-none" }, t("lesson.none", { game: title })));
    return;
  }
  const count = lesson.steps.length;
  const index = Math.min(Math.max(parseInt(stepText || "1", 10) || 1, 1), count) - 1;
  const step = lesson.steps[index];
  const seats = detail.seats || [];
  const seatName = (i) => (seats[i] && seats[i].name ? t(seats[i].name_key, {}, seats[i].name) : t("seat.player", { n: i + 1 }));

  const boardBox = h("div", { class: "boardbox", id: "board", tabindex: "0", role: "application",
    "aria-label": t("match.board"), "aria-describedby": "board-text" });
  const boardText = h("div", { class: "sr-only", id: "board-text", "aria-live": "polite" });
  const boardSay = h("div", { class: "sr-only", id: "board-say", "aria-live": "assertive" });
  const boardNote = h("p", { class: "board-note", id: "board-note", hidden: true, "aria-hidden": "true" });
  const controls = h("div", { class: "controls", id: "controls" });
  const feedback = h("div", { class: "lesson-feedback", id: "lesson-feedback", role: "status", "aria-live": "polite" });
  const actions = h("p", { class: "row", id: "lesson-actions" });
  let keyHandler = null;
  boardBox.addEventListener("keydown", (ev) => {
    if (keyHandler && keyHandler(ev)) { ev.preventDefault(); ev.stopPropagation(); }
  });
  const note = (text) => { boardNote.textContent = text || ""; boardNote.hidden = !text; };

  app.append(h("h1", {}, t(lesson.title_key, {}, lesson.title)),
    h("p", { class: "lead", id: "lesson-step" }, t("lesson.step", { n: index + 1, of: count })),
    h("p", { class: "lesson-task", id: "lesson-task" }, t(step.task_key, {}, step.task)),
    h("div", { class: "lesson-board" }, boardBox, boardNote, controls, boardText, boardSay), feedback, actions);

  const mod = await helpers.boardModule(g.board_module);
  let moves = [];
  let sending = false;

  function draw(struct, interactive) {
    boardBox.replaceChildren();
    controls.replaceChildren();
    boardSay.textContent = "";
    note("");
    keyHandler = null;
    if (!mod || !mod.render) {
      boardBox.append(h("p", { class: "muted" }, t("lesson.no_board")));
      return;
    }
    const ctx = {
      struct, interactive, play: send, controls, live: true, palette: detail.board || {}, seats, seatName, ended: null,
      onKey: (fn) => { keyHandler = fn; },
      say: (text) => { boardSay.textContent = text; note(""); },
      note: (text) => { boardSay.textContent = text; note(text); },
      refresh: () => { if (mod.describe) boardText.textContent = mod.describe(struct, ctx); },
    };
    mod.render(boardBox, ctx);
    boardText.textContent = mod.describe ? mod.describe(struct, ctx) : "";
    const keyHelp = typeof mod.keyHelp === "function" ? mod.keyHelp() : mod.keyHelp;
    if (keyHelp) boardBox.setAttribute("aria-label", `${t("match.board")}. ${keyHelp}`);
  }

  function button(id, label, onclick, primary = false) {
    return h("button", { type: "button", id, class: primary ? "primary" : null, onclick }, label);
  }

  function restart() {
    moves = [];
    feedback.replaceChildren();
    feedback.className = "lesson-feedback";
    actions.replaceChildren();
    draw(step.struct, true);
    boardBox.focus();
  }

  function played(answer) {
    const words = (answer.effects || []).map((e) => fmt(e.message, e.text)).filter(Boolean);
    return answer.turn && answer.turn.length ? t("lesson.you_played", { moves: answer.turn.join(", ") })
      + (words.length ? ` (${words.join("; ")})` : "") : "";
  }

  async function send(text) {
    if (sending) return;
    sending = true;
    const sent = Array.isArray(text) ? text : [text];
    try {
      const answer = await api(`/api/games/${encodeURIComponent(name)}/lessons/${encodeURIComponent(lesson.id)}/${encodeURIComponent(step.id)}`,
        { method: "POST", body: { moves: [...moves, ...sent] } });
      moves = [...moves, ...sent];
      if (answer.status === "continue") {
        draw(answer.struct, true);
        return;
      }
      const right = answer.status === "right";
      draw(answer.struct, false);
      feedback.className = `lesson-feedback ${right ? "right" : "wrong"}`;
      feedback.replaceChildren(
        h("p", { class: "verdict" }, h("b", {}, right ? t("lesson.right") : t("lesson.wrong")), " ", fmt(answer.message, answer.text)),
        h("p", { class: "muted" }, played(answer)));
      actions.replaceChildren();
      if (right && index + 1 < count) {
        actions.append(button("lesson-next", t("lesson.next"), () => { location.hash = `#/lesson/${name}/${index + 2}`; }, true));
      } else if (right) {
        markKnown(name, "done");
        feedback.append(h("p", { id: "lesson-complete" }, t("lesson.complete", { game: title })));
        actions.append(h("a", { href: `#/new/${name}`, class: "button primary", id: "lesson-play" }, t("lesson.play", { game: title })),
          h("a", { href: `#/rules/${name}`, class: "button", id: "lesson-rules" }, t("lesson.rules", { game: title })));
      }
      actions.append(button("lesson-again", right ? t("lesson.again") : t("lesson.try_again"), restart, !right));
      (actions.querySelector(".primary") || actions.querySelector("button")).focus();
    } catch (e) {
      // a move the rules refuse (typed, or a stale board): said at the board; the turn goes on
      feedback.className = "lesson-feedback wrong";
      feedback.replaceChildren(h("p", { class: "error", id: "lesson-error" }, refusal(e)));
    } finally {
      sending = false;
    }
  }

  draw(step.struct, true);
  const skip = h("p", { class: "muted" }, h("a", { href: `#/new/${name}`, id: "lesson-skip", onclick: () => markKnown(name, "dismissed") },
    t("lesson.skip", { game: title })));
  app.append(skip);
}
