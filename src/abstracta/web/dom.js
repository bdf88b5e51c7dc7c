// DOM helpers shared by the client's modules (every page and match-*.js).

// An element: h("a", { href: "#/", class: "x", onclick: f }, "text", child, [more]).
// Attributes false/null/undefined are left out, true gives an empty attribute; "on…" attributes
// become event listeners; "style" goes through the CSSOM, because the CSP refuses style
// attributes.
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "class") node.className = v;
    else if (k === "style") node.style.cssText = v;
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

// A box drawn again (the legal moves, the replay's steps, Undo and Resign, the analysis panel)
// took the focus of a control pressed with a key with it: a keyboard or screen-reader player was
// left on the page's <body>, to find the way back from the top after every move. `keepFocus(box)` before the box
// is rebuilt returns what puts it back: on the same control (its id, move or name) if it may
// still be used, else on the nearest one in the box that may (preceding first), else on
// `fallback`.
export function keepFocus(box, fallback = null) {
  const was = document.activeElement;
  if (!was || was === box || !box.contains(was)) return () => {};
  const controls = () => [...box.querySelectorAll("button, a[href], input, select")];
  const at = controls().indexOf(was);
  // a control with an id is that control whatever it now says (Analyse / Hide analysis)
  const name = (el) => el.id || [el.dataset.move, el.dataset.ply, el.getAttribute("aria-label"), el.textContent].join("\u0000");
  const key = name(was);
  return () => {
    const now = document.activeElement;
    if (now && now !== document.body && now !== was) return; // something took it meanwhile
    const all = controls();
    const usable = (el) => el && !el.disabled && !el.closest("[inert]");
    let to = all.find((el) => name(el) === key && usable(el));
    for (let d = 1; !to && d < all.length + at + 1; d++) to = [all[at - d], all[at + d]].find(usable);
    to = to || fallback;
    if (to && to !== was) to.focus();
  };
}
