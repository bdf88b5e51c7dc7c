// Short rules of each game, in our own words (from the project's specs in rules/*.md).
export const RULES = {
  fanorona: {
    blurb: "The national game of Madagascar: stones capture whole lines by stepping towards an enemy line or away from it, and may chain captures in one turn.",
    html: `
<p>Two players, White (moves first) and Black, on the points of a grid. Lines join each point to its
neighbours across, up and down; from the <em>strong</em> points (where the file and rank add up to an
even number) diagonal lines run too. Boards: <b>Tsivy</b> 9×5, <b>Dimy</b> 5×5, <b>Telo</b> 3×3.</p>
<h3>Capturing</h3>
<ul>
<li>Move a stone one step along a line to an empty point. If the next point beyond it in the same
direction holds an enemy stone, you capture by <b>approach</b>: that stone and the unbroken row of
enemy stones behind it are removed.</li>
<li>If the point you left from has an enemy stone directly behind you, you capture by
<b>withdrawal</b>: that stone and the enemy row behind it are removed.</li>
<li>If one step could capture both ways, you choose which.</li>
<li>Capturing is compulsory. After a capture the same stone may go on capturing, but never twice in a
row in the same direction and never back to a point it already visited this turn. You may stop the
chain at any time ("end turn").</li>
<li>With no capture anywhere, you make a plain step (a <em>paika</em>).</li>
</ul>
<h3>Winning</h3>
<p>Take all enemy stones, or leave the opponent without a move. A position repeated three times, or
100 turns without a capture, is a draw. Notation: <code>d2-e3A</code> (approach), <code>d3-e3W</code>
(withdrawal), <code>d2-e3</code> (paika), <code>end</code>.</p>
<p>Options: <b>vela</b> (handicap: Black may not capture while he has more than five stones and White
takes one stone per turn); <b>first turn single capture</b> (each side's first turn stops after one capture).</p>`,
  },
  nibble: {
    blurb: "Take coloured discs from the edge of a crowded board: collect a whole colour, three neighbouring colours, or the most majorities.",
    html: `
<p>Every cell of the board starts with a disc; discs of the same colour never touch. On your turn take
one or more discs of <b>one colour</b>. Each must be <b>free</b> — on the square board two sides at a right
angle are open (edge of the board or an empty cell); on the hexagonal board three sides in a row are open —
and the discs left behind must still form one connected group.</p>
<h3>Winning</h3>
<ul>
<li>Hold every disc of one colour, or</li>
<li>hold at least 7 (9×9) / 10 (13-colour boards) of each of three colours next to each other in the
colour table (A–B–C, …), or</li>
<li>when the board is empty: the player with a majority (5 of 9, or 7 of 13) in the most colours wins.</li>
</ul>
<p>In the app: click discs of one colour (free discs are outlined), then "take". Notation:
cells joined by <code>+</code>, e.g. <code>a1+a9</code>.</p>`,
  },
  fibonacci: {
    blurb: "Thomas Naylor's hex game: move whole snakes of pieces, swap places with anything, and ring the enemy core with your six attackers.",
    html: `
<p>Red (moves first) and Green each have a core, six attackers and six supports on a 91-cell hexagon.
Red's turns give 1, 3, 5, then 6 moves, Green's 2, 4, then 6; each enemy attacker touching your core at
the start of your turn takes one move away.</p>
<h3>Moves</h3>
<ul>
<li>A move takes one of your attackers or supports. It belongs to a <b>group</b>: all pieces of the same
owner and type connected to it. The piece may go to any cell next to its group.</li>
<li>If that cell is occupied by any other piece (even a core) the two swap places. Cores only move by
being swapped.</li>
<li>You may stop early with <code>pass</code>. Notation <code>e8-f9</code>.</li>
</ul>
<h3>Winning</h3>
<p>Fill all six cells around the enemy core with your attackers (a core on the edge cannot be
surrounded). Threefold repetition or 300 turns is a draw.</p>
<p>Variants: <b>cards</b> — each turn's number of moves comes from your own pile of cards (1–6), and you
win when your six attackers form one group with three of them next to the enemy core. <b>go</b> — start
from an empty board and place supports, attackers, then cores in turn (<code>S@e5</code>).</p>`,
  },
  "fibonacci-cards": {
    blurb: "A card game of sums: play a card worth the sum of two table piles, or cut a big pile down to one; empty your hand first.",
    html: `
<p>Two players, a 52-card deck. Each gets 8 hidden cards; three face-up piles lie on the table; the
rest is the stock. Cards count 2–10, J 11, Q 12, K 13, and an ace 14 from the hand but 1 on the table.</p>
<h3>Playing a card</h3>
<ul>
<li><b>Sum</b>: a card worth the sum of two piles goes on one of those two piles (<code>7h&gt;1</code>); a card worth
all three piles goes on any pile.</li>
<li><b>Cut down</b>: a card of the same rank as a pile's top card may be laid crosswise on it if that pile
and another one add up to more than 14; the pile then counts 1 (<code>5s/2</code>).</li>
<li>If you can play you must. Otherwise <code>draw</code> a card: if it fits you must play it at once.
With an empty stock and nothing to play you <code>pass</code>.</li>
</ul>
<h3>Winning</h3>
<p>Empty your hand first. If nobody can play any more, fewer cards in hand wins (equal: draw).</p>
<p>In the app: click a card of your hand, then a pile. Two people on one device get a hand-over screen
between turns so that the hands stay hidden.</p>`,
  },
  "slide-checkers": {
    blurb: "William Sethares' Fibonacci checkers for 2–4: slide freely through your own colour, jump and capture or convert enemy pieces.",
    html: `
<p>The 12×12 board is coloured by cycles of a Fibonacci sequence modulo 12; each player owns one of the
five large colours (24 squares). 2 players have 7 pieces, 3 have 5, 4 have 4.</p>
<h3>Placement</h3>
<p>In turn, place pieces on empty squares of your colour that do not touch an enemy piece
(<code>@e4</code>).</p>
<h3>Moving</h3>
<ul>
<li><b>Step</b> to any adjacent empty square, or <b>slide</b>: run through a chain of empty squares of
your colour and stop on any empty square next to that chain.</li>
<li><b>Jump</b> over an adjacent enemy piece to the empty square behind it (any of 8 directions), starting
from your square or from a square of your colour you slid to. Then <b>remove</b> the jumped piece
(<code>r</code>) or <b>exchange</b> it for one of yours (<code>e</code>). Jumps are compulsory and chains must go on.</li>
<li>A player with no move passes.</li>
</ul>
<h3>Winning</h3>
<p>When only one colour is left on the board, it wins. 100 turns without a jump, or a full round of
passes, is a draw. Notation: <code>e4-f5</code>, <code>c9&gt;d8*f8r</code>, <code>*j4e</code>.</p>`,
  },
};
