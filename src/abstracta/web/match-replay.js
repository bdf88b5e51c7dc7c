// The match page's replay: which ply it shows (the live position, or one before it), the pages of
// past positions fetched from the server for it, and the steps between them. Part of the match
// page's context (ctx.replay, match-context.js); the stepper and the move list that drive it are
// match-moves.js.
import { api } from "./api.js";

// plies per answer of GET …/positions (the server's matches.REPLAY_PAGE)
const REPLAY_PAGE = 100;

export function replayOf(ctx) {
  let replayPly = null; // null: live position
  // the replay's pages fetched so far ([{from, to, texts, structs}]): the server answers at most
  // REPLAY_PAGE plies at a time (a long game's whole replay was tens of MB)
  let positions = null;
  // the ply a step waits for a page of positions for (null: none): the next step counts from
  // there, not from the ply on screen, so that two quick clicks on ◀ while a page loads step
  // twice; stepSeq numbers the steps, and a page that arrives for a step overtaken by a later
  // one is kept but not drawn
  let pendingPly = null;
  let stepSeq = 0;
  // the pages on their way ("revision/viewer/seat/from" -> the request): a step waits for the
  // one already asked for its page rather than asking again
  const loading = new Map();
  if (ctx.same) {
    positions = ctx.kept.positions;
    replayPly = ctx.kept.replayPly;
  }

  function replayPage(ply) {
    return (positions || []).find((p) => p.from <= ply && ply <= p.to) || null;
  }

  async function stepTo(ply) {
    const step = ++stepSeq;
    pendingPly = null;
    if (ply === null || ply >= ctx.view.ply) { replayPly = null; ctx.draw(); return; }
    if (ctx.needsHandover()) return; // nothing of a seat behind the hand-over screen
    ply = Math.max(0, ply);
    if (!replayPage(ply)) {
      const asked = { revision: ctx.view.revision, viewer: ctx.view.viewer, shown: ctx.shownSeat };
      pendingPly = ply;
      ctx.emit("step"); // ◀ and ▶ go on from the ply asked (▶ too, from the live position)
      let page;
      try {
        page = await fetchPage(ply);
      } catch (e) {
        if (step !== stepSeq) return; // a later step says what went wrong, if anything did
        pendingPly = null;
        ctx.fail(e);
        if (replayPly !== null && !replayPage(replayPly)) ctx.draw(); // the ply on screen has no page any more
        else ctx.emit("step");
        return;
      }
      // an answer for a view no longer on screen is dropped: in pass and play it shows the
      // other person's hand. A newer position or other eyes arrived meanwhile (that view steps
      // again if it may); or the answer is newer than the page's view: fetch that view first
      const view = ctx.view;
      if (view.revision !== asked.revision || view.viewer !== asked.viewer || ctx.shownSeat !== asked.shown) return;
      if (page.revision !== view.revision || page.viewer !== view.viewer) {
        if (page.revision > view.revision) ctx.refresh();
        return;
      }
      if (!(positions || []).some((p) => p.from === page.from)) {
        positions = [...(positions || []), { from: page.from, to: page.to, texts: page.positions, structs: page.structs }];
      }
      if (step !== stepSeq) return; // a later step draws where it goes
      pendingPly = null;
      if (!replayPage(ply)) { ctx.emit("step"); return; }
    }
    replayPly = ply;
    ctx.draw();
  }

  // The page of positions holding `ply`, asked once for the view on screen however many steps
  // wait for it. Aligned pages: every viewer of a match asks for the same ones, which the
  // server keeps.
  function fetchPage(ply) {
    const from = Math.floor(ply / REPLAY_PAGE) * REPLAY_PAGE;
    const key = `${ctx.view.revision}/${ctx.view.viewer}/${ctx.shownSeat}/${from}`;
    if (!loading.has(key)) {
      loading.set(key, api(`/api/matches/${ctx.id}/positions?from=${from}`).finally(() => loading.delete(key)));
    }
    return loading.get(key);
  }

  return {
    stepTo,
    // the ply on screen, null on the live position
    get ply() { return replayPly; },
    // a step waits for its page
    get pending() { return pendingPly !== null; },
    // the ply on screen, the live one too
    at: () => (replayPly === null ? ctx.view.ply : replayPly),
    // where the next step counts from: the ply a step waits for, else the ply on screen
    aimed: () => (pendingPly !== null ? pendingPly : replayPly === null ? ctx.view.ply : replayPly),
    // after a move, an undo or a resignation of this page: the live position, and a step still
    // waiting for its page is not drawn when the page comes
    showLive() {
      replayPly = pendingPly = null;
      stepSeq++;
    },
    // a new position or other eyes: the pages fetched show another game now
    forget() { positions = null; },
    // A newer view was taken with `eyes` on screen before it: the same eyes step on in the
    // replay (fetched again, then drawn; true); other eyes (the hand passed) get the live view
    // at once: the replay on screen is the last seat's (a step still waiting for its page goes
    // on there: it was the last one asked)
    follow(eyes) {
      const aim = pendingPly !== null ? pendingPly : replayPly;
      if (aim !== null && aim < ctx.view.ply && ctx.view.viewer === eyes && !ctx.needsHandover()) { stepTo(aim); return true; }
      replayPly = null;
      pendingPly = null;
      return false;
    },
    // What a drawing shows: {live, shownPly, position, struct}. Nothing seat-specific while the
    // hand-over screen is up (`hide`); a new position dropped the replay's pages and their fetch
    // is still on its way, or was lost: the live position until a page for the ply is held
    // (stepTo draws it then).
    shown(hide) {
      const view = ctx.view;
      if (hide) replayPly = pendingPly = null;
      if (replayPly !== null && !replayPage(replayPly)) replayPly = null;
      if (replayPly === null) return { live: true, shownPly: view.ply, position: view.position, struct: view.struct };
      const page = replayPage(replayPly);
      return { live: false, shownPly: replayPly, position: page.texts[replayPly - page.from], struct: page.structs[replayPly - page.from] };
    },
    // what a language switch keeps
    kept: () => ({ replayPly, positions }),
    // back to the ply a language switch left on screen, where the first drawing could not show it
    resume() {
      const kept = ctx.kept;
      if (kept && kept.replayPly !== null && replayPly === null) stepTo(kept.replayPly); // a newer position meanwhile
    },
  };
}
