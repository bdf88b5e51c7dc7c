// The match page's clocks: the server's `left` at the local moment its view arrived, counted down
// here between views (the server stays the authority: every view re-syncs them), shown beside
// each person's seat; a flag that falls here is claimed from the server.
import { api } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { clockText } from "./words.js";

// Low on time: under 20 s, or 10 % of the initial time where that is less (a 1-minute game is
// not red for a third of it), but never later than 10 s (the rule before, and a person's time
// to see it and move); 20 s at most, or a 15-minute game would be red for a minute and a half
// and red would stop meaning hurry. A day per move counts from its day: 20 s too.
const lowBelow = (control) => Math.min(20, Math.max(10, 0.1 * ((control && (control.initial ?? control.per_turn)) || 0)));

// Returns {span(i)}: seat i's clock, an element to show beside its name (the seat line draws it
// afresh each time; the clock keeps it ticking).
export function clocks(ctx) {
  let clockBase = null; // {left, running, at (performance.now() ms), revision}
  let flagKey = null; // the (revision, seat) whose fallen flag this page claimed already
  let clockTimer = null;
  const spans = new Map(); // seat -> its clock on screen

  function syncClock(fresh) {
    clockBase = fresh.clock ? { left: fresh.clock.left.slice(), running: fresh.clock.running,
      at: performance.now(), revision: fresh.revision } : null;
    clearInterval(clockTimer);
    clockTimer = null;
    if (clockBase && clockBase.running !== null && fresh.status === "playing") clockTimer = setInterval(tickClock, 100);
  }
  const secondsLeft = (i) => {
    if (!clockBase) return null;
    const used = clockBase.running === i ? (performance.now() - clockBase.at) / 1000 : 0;
    return Math.max(0, clockBase.left[i] - used);
  };
  function drawClock(span, i) {
    const view = ctx.view;
    const long = view.clock && view.clock.control && view.clock.control.per_turn !== undefined;
    const below = lowBelow(view.clock && view.clock.control);
    const out = (view.clock && view.clock.out) || [];
    const left = secondsLeft(i);
    const text = out.includes(i) ? t("clock.out") : clockText(left, long);
    if (span.textContent !== text) span.textContent = text;
    const running = clockBase.running === i && view.status === "playing";
    const low = left < below && view.status === "playing" && !out.includes(i);
    span.classList.toggle("running", running);
    span.classList.toggle("low", low);
    span.classList.toggle("urgent", low && running); // the time running out now: bold, pulsing
  }
  function tickClock() {
    if (ctx.stopped || !clockBase) return;
    for (const [i, span] of spans) drawClock(span, i);
    const r = clockBase.running;
    if (r === null || ctx.view.status !== "playing" || secondsLeft(r) > 0) return;
    const key = `${clockBase.revision}:${r}`;
    if (flagKey === key) return;
    flagKey = key; // once per fallen flag: the server applies it by itself too
    claimFlag();
  }
  async function claimFlag() {
    if (ctx.seats.spectator) { ctx.refresh(); return; } // a spectator's look applies a fallen flag too
    try {
      ctx.accept(await api(`/api/matches/${ctx.id}/flag`, { method: "POST" }));
      ctx.connected(true);
    } catch (e) {
      if (e.status === 409) setTimeout(ctx.refresh, 700); // not quite fallen here yet, or applied already
      else ctx.fail(e);
    }
  }

  ctx.on("fresh", syncClock);
  ctx.on("draw", tickClock);
  ctx.on("stop", () => clearInterval(clockTimer));
  return {
    span(i) {
      const span = h("span", { class: "clock", "data-clock": i });
      spans.set(i, span);
      if (!ctx.stopped && clockBase) drawClock(span, i);
      return span;
    },
  };
}
