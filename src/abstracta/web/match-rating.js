// The match page's rated game: "Rated" beside the heading, and under the result what the end did
// to each rating (names.js words both; the server sends view.rated and view.rating_changes).
import { h } from "./dom.js";
import { drawRatingChanges, ratedMark } from "./names.js";

// Returns {mark, box}: the mark for the heading (null: an unrated game) and the box to lay out
// under the result banner, drawn at every draw of the page.
export function ratingLines(ctx) {
  const box = h("p", { class: "rating-change", id: "rating-change", hidden: true, "aria-live": "polite" });
  ctx.on("draw", () => drawRatingChanges(box, ctx.view, ctx.seats.seatName, ctx.seats.mySeats));
  return { mark: ratedMark(ctx.view), box };
}
