// The built-in API page: the endpoints of /openapi.json as a table (no CDN needed).
import { preferred, setLanguage, t, translateMarked } from "/i18n.js";

const main = document.getElementById("api");
const loading = document.getElementById("api-loading");

// The reference is the schema's English (main is lang="en"); the app's header around it speaks
// the reader's language, and a reader of another language is told why the page does not.
async function localise() {
  const code = preferred();
  if (code === "en") return;
  await setLanguage(code);
  translateMarked(document.querySelector("header"));
  const note = cell("p", t("api.in_english"), "muted");
  note.id = "api-lang-note";
  note.lang = code;
  main.querySelector("h1").after(note);
}
localise().catch(() => { /* no catalog: the page stays English */ });

function cell(tag, text, cls) {
  const node = document.createElement(tag);
  node.textContent = text;
  if (cls) node.className = cls;
  return node;
}

function params(op) {
  const out = (op.parameters || []).map((p) => `${p.in === "path" ? "" : "?"}${p.name}${p.required ? "" : " (optional)"}`);
  if (op.requestBody) {
    const ref = JSON.stringify(op.requestBody).match(/#\/components\/schemas\/(\w+)/);
    out.push(`JSON body${ref ? ": " + ref[1] : ""}`);
  }
  return out.join(", ");
}

// A row of the table; on a phone each row is a card (style.css), its parameters named by the
// cell's data-label as the hidden column heading did.
function endpoint(body, method, path, what, parameters) {
  const row = body.insertRow();
  const where = cell("td", "", "path");
  where.append(cell("code", path));
  const given = cell("td", parameters, "params");
  given.dataset.label = "Parameters";
  row.append(cell("td", method, "method"), where, cell("td", what, "what"), given);
}

try {
  const res = await fetch("/openapi.json");
  const schema = await res.json();
  const table = document.createElement("table");
  table.id = "endpoints";
  const head = table.createTHead().insertRow();
  for (const t of ["Method", "Path", "What it does", "Parameters"]) head.append(cell("th", t));
  const body = table.createTBody();
  for (const [path, ops] of Object.entries(schema.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      endpoint(body, method.toUpperCase(), path, op.summary || "", params(op));
    }
  }
  endpoint(body, "WS", "/api/matches/{match_id}/ws", "Live updates: the match view each time it changes (text frames only)", "?seat");
  const schemas = cell("h2", "Shapes");
  const list = document.createElement("ul");
  for (const [name, s] of Object.entries(schema.components?.schemas || {})) {
    if (!s.properties) continue;
    const li = document.createElement("li");
    li.append(cell("strong", name + ": "), cell("code", Object.keys(s.properties).join(", ")));
    list.append(li);
  }
  const rules = document.createElement("ul");
  rules.id = "api-rules";
  for (const line of (schema.info?.description || "").split(/\n\s*\* /).slice(1)) rules.append(cell("li", line.replace(/\s+/g, " ").replace(/`/g, "")));
  loading.replaceWith(table, cell("h2", "Rules"), rules, schemas, list);
} catch (e) {
  loading.textContent = `Could not load /openapi.json: ${e.message}`;
  loading.className = "error";
}
