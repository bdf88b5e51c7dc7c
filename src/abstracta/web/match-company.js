// The match page's company (issue 43): the match's room (room.js: chat lines and how many watch),
// the count of watchers (live.js), the chat (chat.js) and the "your move" notices (notify.js:
// the tab's title and icon, a sound, a notification). The room is a socket of its own, apart from
// the match's (match-live.js), closed with the page.
import { tokensOf } from "./api.js";
import { chatPanel } from "./chat.js";
import { watcherCount } from "./live.js";
import { yourMove } from "./notify.js";
import { openRoom } from "./room.js";

// `title`: the match's heading (the tab's title says it), `toBoard()` brings the board into sight.
// Returns {watchers, chat, chatMarker, notices}: the nodes to lay out (the count under the note to
// a spectator; the chat and the notices' settings under the actions; the chat's marker by the
// heading).
export function company(ctx, title, toBoard) {
  const room = openRoom(ctx.id, () => tokensOf(ctx.id));
  const notices = yourMove({ id: ctx.id, title, mySeats: () => ctx.seats.mySeats });
  ctx.on("draw", () => notices.update(ctx.view));
  ctx.on("rejoin", () => room.reopen()); // the browser holds other seats now than when it opened
  const chat = chatPanel({ id: ctx.id, room, seatName: (i) => ctx.seats.seatName(i), toBoard });
  ctx.on("stop", () => { room.close(); notices.stop(); chat.stop(); });
  return { watchers: watcherCount(room), chat: chat.node, chatMarker: chat.marker, notices: notices.node };
}
