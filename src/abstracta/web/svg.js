// Small SVG helpers shared by the per-game boards.
export const NS = "http://www.w3.org/2000/svg";

export function el(tag, attrs = {}, parent = null) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null) continue;
    if (k === "text") node.textContent = v;
    else if (k === "style") node.style.cssText = v; // a style attribute would be refused by the CSP
    else node.setAttribute(k, v);
  }
  if (parent) parent.appendChild(node);
  return node;
}

export function svgRoot(container, width, height, label, maxWidth = null) {
  const svg = el("svg", { viewBox: `0 0 ${width} ${height}`, class: "board", role: "img", "aria-label": label });
  if (maxWidth) svg.style.maxWidth = `${maxWidth}px`;
  svg.style.margin = "0 auto";
  container.appendChild(svg);
  return svg;
}

export function button(parent, label, onClick, cls = "") {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = label;
  if (cls) b.className = cls;
  b.addEventListener("click", onClick);
  parent.appendChild(b);
  return b;
}

export function hexPoints(cx, cy, r) {
  const pts = [];
  for (let i = 0; i < 6; i++) {
    const a = Math.PI / 180 * (60 * i - 30);
    pts.push(`${(cx + r * Math.cos(a)).toFixed(1)},${(cy + r * Math.sin(a)).toFixed(1)}`);
  }
  return pts.join(" ");
}
