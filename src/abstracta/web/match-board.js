// The match page's board and the ways to move: the game's board module drawing the position on
// screen (games/<name>/web/board.js, its contract in docs/board-modules.md) with its words for
// screen readers and its keys, the position as text, the legal moves as buttons and a move typed.
import { h, keepFocus } from "./dom.js";
import { t } from "./i18n.js";
import { resultText } from "./outcome.js";

// Returns {box (the board's element), say(text), kept()} and the nodes to lay out: {board: the
// board with its words, controls and refusals, aside: the legal moves and the typed move}.
export function boardPanel(ctx) {
  const { mod, kept } = ctx;
  // the board takes the keyboard focus itself: the module's key handler gets the keys there
  const boardBox = h("div", { class: "boardbox", id: "board", tabindex: "0", role: "application",
    "aria-label": t("match.board"), "aria-describedby": "board-text" });
  const boardText = h("div", { class: "sr-only", id: "board-text", "aria-live": "polite" });
  const boardSay = h("div", { class: "sr-only", id: "board-say", "aria-live": "assertive" });
  // a refused click answered at the board (a board module's ctx.note): the notes under the board
  // are often below the fold on a phone; said aloud through board-say, so hidden from readers here
  const boardNote = h("p", { class: "board-note", id: "board-note", hidden: true, "aria-hidden": "true" });
  const note = (text) => { boardNote.textContent = text || ""; boardNote.hidden = !text; };
  let keyHandler = null;
  boardBox.addEventListener("keydown", (ev) => {
    if (keyHandler && keyHandler(ev)) { ev.preventDefault(); ev.stopPropagation(); }
  });
  const controls = h("div", { class: "controls", id: "controls" });
  const posText = h("pre", { class: "position small", id: "position-text" });
  const legalBox = h("div", { class: "legal", id: "legal" });
  const entry = h("input", { id: "move-input", placeholder: t("match.type_eg", { move: ctx.view.legal[0] || "" }), autocomplete: "off", autocapitalize: "off",
    spellcheck: "false", "aria-label": t("match.type") });
  const entryForm = h("form", { class: "entry", hidden: ctx.seats.spectator }, entry, h("button", { type: "submit" }, t("match.play")));
  const textBox = h("details", { open: !!(kept && kept.textOpen) }, h("summary", { class: "muted" }, t("match.position_text")), posText);
  if (kept) entry.value = kept.typed;
  const legalWrap = h("details", { class: "legalwrap", open: kept ? kept.legalOpen : !(mod && mod.render), hidden: ctx.seats.spectator },
    h("summary", {}, t("match.legal_moves")), legalBox);
  entryForm.addEventListener("submit", (ev) => { ev.preventDefault(); if (!entry.readOnly && entry.value.trim()) ctx.send(entry.value.trim(), true); });

  let lastRenderKey = null; // what the board shows now
  let endHeard = false; // the board's words of the last click were cleared when the game ended

  function drawBoard({ over, hide, live, interactive, position, struct }) {
    const view = ctx.view, { seatName, seatLabel, own } = ctx.seats;
    // the same picture is not drawn twice (a redraw would restart a module's animation)
    const ended = over ? { result: view.result, termination: view.termination, text: resultText(view, seatName, own) } : null;
    const renderKey = JSON.stringify([hide, struct, interactive, live, ended, ctx.connLost]);
    // what the last click said ("e4 selected. 3 moves: …") is no longer true once the game has
    // ended; a board module may still say something of the end as it draws it (below)
    if (over && !endHeard) boardSay.textContent = "";
    endHeard = over;
    if (renderKey === lastRenderKey) return;
    lastRenderKey = renderKey;
    // what was said of the board before ("the stone on b2 must capture again") described a
    // position or a turn that has gone: said afresh, if at all, by the board drawn now
    boardSay.textContent = "";
    note("");
    boardBox.replaceChildren();
    controls.replaceChildren();
    keyHandler = null;
    if (hide) {
      boardBox.append(h("p", { class: "hidden-note" }, t("handover.hidden")));
      // the words of the last seat's board (its hand) and what it last said (a card picked)
      // would stay in the page for the next person to read
      boardText.textContent = t("handover.hidden");
      boardSay.textContent = "";
    } else if (mod && mod.render) {
      try {
        // the board module draws the structured view and sends action strings (docs/board-modules.md)
        const board = {
          struct, interactive, play: ctx.send, controls, live,
          palette: view.board || {}, seats: view.seats || [], seatName, seatLabel,
          ended, // the end of the match ({result, termination, text}; a resignation too), or null
          onKey: (fn) => { keyHandler = fn; }, // fn(KeyboardEvent) -> true when it used the key
          say: (text) => { boardSay.textContent = text; note(""); }, // spoken at once by screen readers
          // why a click did nothing, in the view's words: shown at the board and spoken
          note: (text) => { boardSay.textContent = text; note(text); },
          refresh: () => { if (mod.describe) boardText.textContent = mod.describe(struct, board); },
        };
        mod.render(boardBox, board);
        const text = mod.describe ? mod.describe(struct, board) : "";
        if (boardText.textContent !== text) boardText.textContent = text;
        // a module's key help: a function (in the reader's language) or a plain sentence
        const keyHelp = typeof mod.keyHelp === "function" ? mod.keyHelp() : mod.keyHelp;
        if (keyHelp) boardBox.setAttribute("aria-label", `${t("match.board")}. ${keyHelp}`);
      } catch (e) {
        console.error(e);
        boardBox.replaceChildren(h("pre", { class: "position" }, position));
        boardText.textContent = ""; // the text board is read as it is; no earlier words stay
      }
    } else {
      boardBox.append(h("pre", { class: "position" }, position));
      boardText.textContent = "";
    }
  }

  // the legal moves as buttons, and the move typed
  function drawMoves({ over, hide, live, interactive }) {
    const view = ctx.view;
    const legalFocus = keepFocus(legalBox, legalWrap.querySelector("summary"));
    legalBox.replaceChildren();
    if (interactive) {
      for (const m of view.legal) legalBox.append(h("button", { type: "button", class: "move", "data-move": m, onclick: () => ctx.send(m) }, m));
    } else {
      legalBox.append(h("span", { class: "muted" }, over ? t("match.over_note") : ctx.connLost ? t("match.waiting_server") : hide ? t("handover.hidden")
        : (live ? t("match.not_your_move") : t("match.replaying"))));
    }
    legalFocus();
    // a spectator and a finished game have no move to pick or type: nothing greyed is shown
    legalWrap.hidden = entryForm.hidden = ctx.seats.spectator || over;
    // read-only, not disabled, while it is not this seat's move: a disabled box loses the
    // focus, and whoever typed a move was left on the page's <body> until the next turn
    entry.readOnly = !interactive;
    entry.setAttribute("aria-disabled", String(!interactive));
    entry.placeholder = interactive && view.legal.length ? t("match.type_eg", { move: view.legal[0] }) : t("match.type");
  }

  ctx.on("draw", (frame) => {
    drawBoard(frame);
    posText.textContent = frame.hide ? t("handover.hidden") : frame.position;
    drawMoves(frame);
  });
  ctx.on("played", () => { entry.value = ""; });
  ctx.screen(boardBox, controls, legalWrap, entryForm);
  return {
    box: boardBox,
    board: [boardBox, boardNote, boardText, boardSay, controls, ctx.errorLine, textBox],
    aside: [legalWrap, entryForm],
    // words for screen readers about the board, now (the analysis' best line)
    say: (text) => { boardSay.textContent = text; },
    // what a language switch keeps: the boxes open and a move half typed
    kept: () => ({ legalOpen: legalWrap.open, textOpen: textBox.open, typed: entry.value }),
  };
}

// At the end of a game the whole board is in sight, under the result: on a phone the replay's
// steps float at the foot of the screen (style.css) and the result stands above the board, and
// a tall board (one standing upright) went on under the steps, its last row and labels hidden.
// Then the board is only as tall as the room between its top and the foot of the screen or
// the steps (never under 200 px: a very low screen scrolls instead), and no wider than the
// screen (a phone's boards that pan sideways for a finger's targets show all of it: nothing is
// played any more). In the middle of a game a step back keeps the board's size: it would
// shrink and grow back under the finger.
export function fitBoard(view, boardBox, stepper) {
  const svg = boardBox.querySelector("svg.board");
  const fit = !!svg && view.status === "over";
  boardBox.classList.toggle("fit", fit);
  if (!fit) return;
  const floating = !stepper.hidden && getComputedStyle(stepper).position === "fixed";
  const top = svg.getBoundingClientRect().top + window.scrollY;
  const room = window.innerHeight - (floating ? stepper.getBoundingClientRect().height : 0) - top - 8;
  boardBox.style.setProperty("--board-fit", `${Math.round(Math.max(room, 200))}px`);
}
