// DOM helpers shared by the client's modules (app.js, analysis.js).

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
