// People's pages (issue 41): sign up, sign in, recovery, the account page, a player's profile,
// the leaderboards, and the header's name with its menu. The session is an HttpOnly cookie the
// page never reads: who is signed in comes from GET /api/me. Pages: #/signup, #/signin,
// #/recover, #/account, #/players/<name>, #/leaderboards, #/leaderboards/<pool>.
import { api } from "./api.js";
import { h } from "./dom.js";
import { lang, refusal, t } from "./i18n.js";
import { el } from "./svg.js";

export const PAGES = new Set(["signup", "signin", "recover", "account", "players", "leaderboards"]);
const SPEEDS = ["bullet", "blitz", "rapid", "classical", "correspondence"];
const SCOPES = ["read", "play", "lobby", "chat"];
const AFTER_KEY = "abstracta.after"; // where sign-in returns to

let me = null; // {kind: null | "guest" | "account", name}
const listeners = [];
// when this tab last signed out (the header's Sign out; performance.now()): the server closes
// this tab's sockets opened before then with SESSION_ENDED, which is no news to the person. One
// opened since held a session begun since (in another tab: the cookie is the browser's), whose
// end is news, however long ago this tab signed out and whether or not it had a socket open then.
let signedOutAt = -Infinity;

// Who this browser is (GET /api/me), asked once and again after a change (`fresh`).
export async function whoAmI(fresh = false) {
  if (!me || fresh) {
    try { me = await api("/api/me"); } catch { me = { kind: null, name: null }; }
    for (const fn of listeners) fn(me);
  }
  return me;
}
export function onMe(fn) { listeners.push(fn); }

// Nobody signed in becomes a guest with a generated name (POST /api/guests; its refusal is
// thrown): who this browser is now.
export async function becomeGuest() {
  await api("/api/guests", { method: "POST" });
  return whoAmI(true);
}

const date = (iso) => new Date(iso).toLocaleDateString(lang, { year: "numeric", month: "short", day: "numeric" });
const dateTime = (iso) => new Date(iso).toLocaleString(lang, { dateStyle: "medium", timeStyle: "short" });
const gameTitle = (games, name) => {
  const g = (games || []).find((x) => x.name === name);
  return g ? t(g.title_key, {}, g.title) : name;
};
// "Game — Variant": a pool's game and variant in the reader's words (both from the game's description)
const poolGame = (games, p) => t("game.with_variant", { game: gameTitle(games, p.game), variant: t(p.label_key, {}, p.label || p.variant) });
const speedName = (s) => t(`people.speed.${s}`);
// a rating as lichess shows it: "1523", or "1523?" while provisional (RD > 110)
const ratingText = (r) => `${r.rating}${r.provisional ? "?" : ""}`;
function ratingCell(r) {
  return h("span", { title: r.provisional ? t("people.provisional") : null },
    ratingText(r), r.provisional ? h("span", { class: "sr-only" }, ` (${t("people.provisional")})`) : null);
}

function field(label, attrs, hint) {
  const id = attrs.id;
  const hintId = hint ? `${id}-hint` : null;
  return h("label", { for: id, class: "field" }, h("span", {}, label),
    h("input", { ...attrs, "aria-describedby": hintId }), hint ? h("small", { id: hintId }, hint) : null);
}
const errorBox = (id) => h("p", { class: "error", id, role: "alert", hidden: true });
function showError(box, err) {
  box.textContent = err ? refusal(err) : "";
  box.hidden = !err;
}
// A form that posts its fields' values: `send(values)` resolves, or its refusal is shown under it.
function form(id, children, submitLabel, send) {
  const error = errorBox(`${id}-error`);
  const submit = h("button", { type: "submit", class: id === "delete-form" ? "danger" : "primary", id: `${id}-submit` }, submitLabel);
  const node = h("form", { class: "people-form", id, novalidate: true }, children, h("p", { class: "row" }, submit), error);
  node.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const values = Object.fromEntries([...node.querySelectorAll("input[name]")].filter((i) => i.type !== "checkbox")
      .map((i) => [i.name, i.value]));
    submit.disabled = true;
    showError(error, null);
    try { await send(values, node); } catch (err) { showError(error, err); } finally { submit.disabled = false; }
  });
  return node;
}

// ------------------------------------------------------------------------------ the header
// The header's person: "Sign in" for nobody; the guest's or account's name opening a menu of
// links (a disclosure: Escape or a click elsewhere closes it). Drawn again after every change of
// person and of language (drawMe from the shell's header).
let meBox = null;
export function drawMe(box) {
  meBox = box;
  paintMe();
}
// drawn again only when the person changes (or the box is new: drawMe): a redraw for the same
// person would close a menu opened meanwhile (the notices ask who is signed in again at times)
let paintedFor = null;
const personKey = () => JSON.stringify(me ? [me.kind, me.name] : null);
onMe(() => { if (personKey() !== paintedFor) paintMe(); });

function closeMenu() {
  const menu = meBox && meBox.querySelector("#me-menu");
  if (menu && !menu.hidden) {
    menu.hidden = true;
    meBox.querySelector("#me-button").setAttribute("aria-expanded", "false");
  }
}
document.addEventListener("click", (ev) => { if (meBox && !meBox.contains(ev.target)) closeMenu(); });
window.addEventListener("hashchange", closeMenu);

function paintMe() {
  if (!meBox) return;
  paintedFor = personKey();
  const who = me;
  meBox.replaceChildren();
  if (!who || !who.kind) {
    if (who) meBox.append(h("a", { href: "#/signin", id: "me-signin" }, t("people.sign_in")));
    return;
  }
  const menu = h("ul", { class: "me-menu", id: "me-menu", hidden: true });
  const toggle = h("button", { type: "button", class: "me-name", id: "me-button", "aria-expanded": "false", "aria-controls": "me-menu",
    "aria-label": t(who.kind === "guest" ? "people.menu_guest" : "people.menu_account", { name: who.name }) },
  who.name, h("span", { "aria-hidden": "true" }, " ▾"));
  toggle.addEventListener("click", () => {
    menu.hidden = !menu.hidden;
    toggle.setAttribute("aria-expanded", String(!menu.hidden));
    if (!menu.hidden) menu.querySelector("a, button").focus();
  });
  meBox.onkeydown = (ev) => { if (ev.key === "Escape" && !menu.hidden) { closeMenu(); toggle.focus(); } };
  const item = (node) => h("li", {}, node);
  if (who.kind === "guest") {
    menu.append(item(h("a", { href: "#/account" }, t("people.change_name"))),
      item(h("a", { href: "#/signup" }, t("people.make_account"))), item(h("a", { href: "#/signin" }, t("people.sign_in"))));
  } else {
    menu.append(item(h("a", { href: profileHref(who.name) }, t("people.profile"))),
      item(h("a", { href: "#/account" }, t("people.account"))),
      item(h("button", { type: "button", id: "sign-out", onclick: async () => {
        closeMenu();
        const before = signedOutAt;
        signedOutAt = performance.now(); // before the server closes this tab's sockets (see askAfterEnd)
        try { await api("/api/session", { method: "DELETE" }); } catch (err) { signedOutAt = before; throw err; }
        signedOutAt = performance.now(); // a socket opened while it was asked held the same session
        await whoAmI(true);
        location.hash = "#/";
      } }, t("people.sign_out"))));
  }
  meBox.append(toggle, menu);
}

// ------------------------------------------------------------------------------ a session ended
// The close code of a socket (the match's, its room's, the lobby's) whose session ended after it
// opened: signed out in another tab, the password changed, the account disabled (the server
// sends "your session has ended: sign in again" first).
export const SESSION_ENDED = 4401;
// How long after such a close the page asks who is signed in (see sessionEnded), in ms.
const SETTLE_MS = 1500;

// A socket closed with SESSION_ENDED (`openedAt`: when it was opened, performance.now()). The
// header asks GET /api/me again, as after signing out here. When nobody is signed in now and the
// socket was opened after this tab last signed out, the page says why at its top, once however
// many of its sockets close, with the way back in (signing in returns to this page), and this
// resolves true. When somebody is (a guest who made an account or signed in in another tab: the
// guest's session ended, a new one began), there is nothing to say: false. Either way a socket
// opened again is the browser's as it is now (nobody's, or the new session's): it is never refused
// with SESSION_ENDED for the session that ended, so reopening cannot loop. The page's sockets
// close together (the game's and the room's): they share one asking.
let ending = null;
export function sessionEnded(openedAt) {
  if (!ending) ending = askAfterEnd(openedAt).finally(() => { ending = null; });
  return ending;
}
async function askAfterEnd(openedAt) {
  // The other tab's sign-up or sign-in ends this session when it commits, a moment before its
  // answer brings the browser the new cookie: asked at once, /api/me would still say nobody.
  await new Promise((settled) => setTimeout(settled, SETTLE_MS));
  const now = await whoAmI(true);
  if (now && now.kind) return false;
  // the person signed out in this tab: the sockets closed for that
  if (openedAt < signedOutAt) return false;
  sayEnded(document.querySelector("#app > .page")); // the page's box (app.js's route)
  return true;
}
// The note that the session ended, at the top of `page` (once), in the reader's language: said
// by sessionEnded, and again by a language switch (app.js's route draws the page anew in the
// new words) while nobody is signed in.
export function sayEnded(page) {
  if (!page || page.querySelector("#session-ended") || (me && me.kind)) return;
  page.prepend(h("p", { class: "note session-ended", id: "session-ended", role: "alert" }, t("people.session_ended"), " ",
    h("a", { class: "button primary", href: "#/signin", id: "session-signin" }, t("people.sign_in"))));
}

// ------------------------------------------------------------------------------ routing
export async function peoplePage(app, parts, { games }) {
  const [page, arg] = parts;
  if (page === "signup") return signUpPage(app);
  if (page === "signin") return signInPage(app);
  if (page === "recover") return recoverPage(app);
  if (page === "account") return accountPage(app);
  if (page === "players" && arg) return profilePage(app, arg, await games());
  if (page === "leaderboards" && arg) return leaderboardPage(app, arg, await games());
  return leaderboardsPage(app, await games());
}

function heading(app, text) {
  document.title = `${text} — abstracta`;
  app.append(h("h1", {}, text));
}

// Where signing in or up goes on to: the page the reader came from (kept when they follow "Sign
// in" or "Make an account"), else the home page; taken once.
function nextPage() {
  let to = "#/";
  try { to = sessionStorage.getItem(AFTER_KEY) || "#/"; sessionStorage.removeItem(AFTER_KEY); } catch { /* private mode */ }
  return /^#\/(signin|signup|recover)/.test(to) ? "#/" : to;
}
function afterSignIn() {
  location.hash = nextPage();
}
window.addEventListener("hashchange", (ev) => {
  // a hashchange the page dispatches itself (the lobby's redraw) may carry no oldURL
  const from = ev.oldURL ? new URL(ev.oldURL).hash : "";
  if (/^#\/(signin|signup)$/.test(location.hash) && !/^#\/(signin|signup|recover)/.test(from)) {
    try { sessionStorage.setItem(AFTER_KEY, from || "#/"); } catch { /* private mode */ }
  }
});

const usernameField = (id) => field(t("people.username"),
  { id, name: "username", autocomplete: "username", required: true, maxlength: 20, autocapitalize: "none", spellcheck: "false" });

// ------------------------------------------------------------------------------ sign up / in
async function signUpPage(app) {
  const who = await whoAmI();
  heading(app, t("people.make_account"));
  if (who.kind === "account") {
    app.append(h("p", {}, t("people.signed_in_as", { name: who.name })), h("p", {}, h("a", { class: "button", href: "#/account" }, t("people.account"))));
    return;
  }
  app.append(h("p", { class: "lead" }, who.kind === "guest" ? t("people.signup_lead_guest", { name: who.name }) : t("people.signup_lead")));
  const node = form("signup", [
    field(t("people.username"), { id: "signup-username", name: "username", autocomplete: "username", required: true, maxlength: 20,
      autocapitalize: "none", spellcheck: "false" }, t("people.username_rule")),
    field(t("people.password"), { id: "signup-password", name: "password", type: "password", autocomplete: "new-password",
      required: true, minlength: 8 }, t("people.password_rule")),
  ], t("people.make_account"), async (values) => {
    const made = await api("/api/accounts", { method: "POST", body: values });
    await whoAmI(true);
    // past the codes, on to play (as lichess does), not to the account's settings
    showCodes(app, made.recovery_codes, t("people.codes_welcome", { name: made.name }), nextPage());
  });
  app.append(node, h("p", {}, t("people.have_account"), " ", h("a", { href: "#/signin" }, t("people.sign_in"))));
}

// Recovery codes, shown once: the reader keeps them (copy, download) before going on to `next`.
function showCodes(app, codes, lead, next) {
  app.replaceChildren(h("h1", { tabindex: "-1", id: "codes-heading" }, t("people.codes_title")));
  document.title = `${t("people.codes_title")} — abstracta`;
  const text = codes.join("\n");
  const copied = h("span", { class: "muted", role: "status" });
  app.append(h("p", { class: "lead" }, lead), h("p", { class: "note" }, t("people.codes_once")),
    h("ol", { class: "codes", id: "recovery-codes" }, codes.map((c) => h("li", {}, h("code", {}, c)))),
    h("p", { class: "row" },
      h("button", { type: "button", id: "codes-copy", onclick: async () => {
        try { await navigator.clipboard.writeText(text); copied.textContent = t("people.copied"); } catch { copied.textContent = t("people.copy_failed"); }
      } }, t("people.copy")),
      h("a", { class: "button", id: "codes-download", download: "abstracta-recovery-codes.txt",
        href: URL.createObjectURL(new Blob([text + "\n"], { type: "text/plain" })) }, t("people.download")),
      copied),
    h("p", {}, h("a", { class: "button primary", href: next, id: "codes-done" }, t("people.codes_saved"))));
  app.querySelector("#codes-heading").focus();
}

async function signInPage(app) {
  const who = await whoAmI();
  heading(app, t("people.sign_in"));
  if (who.kind === "account") app.append(h("p", { class: "muted" }, t("people.signed_in_as", { name: who.name })));
  app.append(form("signin", [
    usernameField("signin-username"),
    field(t("people.password"), { id: "signin-password", name: "password", type: "password", autocomplete: "current-password", required: true }),
  ], t("people.sign_in"), async (values) => {
    await api("/api/session", { method: "POST", body: values });
    await whoAmI(true);
    afterSignIn();
  }),
  h("p", {}, t("people.no_account"), " ", h("a", { href: "#/signup" }, t("people.make_account"))),
  h("p", {}, h("a", { href: "#/recover" }, t("people.forgot"))));
}

async function recoverPage(app) {
  heading(app, t("people.recover_title"));
  app.append(h("p", { class: "lead" }, t("people.recover_lead")), form("recover", [
    usernameField("recover-username"),
    field(t("people.recovery_code"), { id: "recover-code", name: "code", autocomplete: "one-time-code", required: true, maxlength: 30,
      autocapitalize: "none", spellcheck: "false" }),
    field(t("people.new_password"), { id: "recover-password", name: "password", type: "password", autocomplete: "new-password",
      required: true, minlength: 8 }, t("people.password_rule")),
  ], t("people.recover_go"), async (values) => {
    await api("/api/accounts/recover", { method: "POST", body: values });
    await whoAmI(true);
    location.hash = "#/account";
  }));
}

// ------------------------------------------------------------------------------ the account page
async function accountPage(app) {
  const who = await whoAmI(true);
  if (!who.kind) {
    heading(app, t("people.account"));
    const error = errorBox("guest-error");
    app.append(h("p", {}, t("people.not_signed_in")), h("p", { class: "row" }, h("a", { class: "button primary", href: "#/signin" }, t("people.sign_in")),
      h("a", { class: "button", href: "#/signup" }, t("people.make_account")),
      h("button", { type: "button", id: "play-as-guest", onclick: async () => {
        try {
          await becomeGuest();
          if (app.isConnected) accountPageAgain(app);
        } catch (err) { showError(error, err); }
      } }, t("people.play_as_guest"))), error);
    return;
  }
  heading(app, who.name);
  if (who.kind === "guest") {
    app.append(h("p", { class: "lead" }, t("people.guest_lead")),
      h("section", { "aria-labelledby": "rename-h" }, h("h2", { id: "rename-h" }, t("people.change_name")),
        form("rename", [field(t("people.name"), { id: "rename-name", name: "name", value: who.name, maxlength: 20, required: true,
          autocapitalize: "none", spellcheck: "false" }, t("people.username_rule"))], t("people.save"), async (values) => {
          await api("/api/me/name", { method: "PUT", body: values });
          await whoAmI(true);
          if (app.isConnected) accountPageAgain(app);
        })),
      h("p", { class: "row" }, h("a", { class: "button primary", href: "#/signup" }, t("people.make_account")),
        h("a", { class: "button", href: "#/signin" }, t("people.sign_in"))));
    return;
  }
  app.append(h("p", { class: "muted" }, t("people.member_since", { date: date(who.member_since) }), " · ",
    h("a", { href: profileHref(who.name) }, t("people.your_profile"))));
  const sections = h("div", { class: "account" });
  app.append(sections);
  await Promise.all([sessionsSection(sections), tokensSection(sections)]);
  sections.append(codesSection(), passwordSection(), exportSection(who), deleteSection());
}

function accountPageAgain(app) {
  app.replaceChildren();
  accountPage(app);
}

function section(id, title, ...children) {
  return h("section", { id, "aria-labelledby": `${id}-h` }, h("h2", { id: `${id}-h` }, title), children);
}

// "Firefox on Linux": enough of a user agent to tell one's devices apart
function device(agent) {
  if (!agent) return t("people.unknown_device");
  const browser = /Edg\//.test(agent) ? "Edge" : /Firefox\//.test(agent) ? "Firefox" : /Chrom(e|ium)\//.test(agent) ? "Chromium"
    : /Safari\//.test(agent) ? "Safari" : agent.split(/[ /]/)[0];
  const os = /Android/.test(agent) ? "Android" : /iPhone|iPad/.test(agent) ? "iOS" : /Windows/.test(agent) ? "Windows"
    : /Mac OS X/.test(agent) ? "macOS" : /Linux/.test(agent) ? "Linux" : null;
  return os ? t("people.device_on", { browser, os }) : browser;
}

async function sessionsSection(parent) {
  const box = section("sessions", t("people.sessions"));
  parent.append(box);
  const list = h("ul", { class: "plain", id: "session-list" });
  const error = errorBox("sessions-error");
  const draw = async () => {
    const sessions = await api("/api/me/sessions");
    list.replaceChildren(...sessions.map((s) => h("li", { class: "item" },
      h("span", {}, h("strong", {}, device(s.user_agent)), " ", h("span", { class: "muted" }, `${s.ip} · ${t("people.last_seen", { when: dateTime(s.last_seen) })}`)),
      s.current ? h("span", { class: "tag" }, t("people.this_browser"))
        : h("button", { type: "button", "aria-label": t("people.end_session_of", { device: device(s.user_agent) }), onclick: async () => {
          try { await api(`/api/me/sessions/${encodeURIComponent(s.id)}`, { method: "DELETE" }); await draw(); } catch (err) { showError(error, err); }
        } }, t("people.end_session")))));
    endOthers.hidden = sessions.length < 2;
  };
  const endOthers = h("button", { type: "button", id: "end-others", onclick: async () => {
    try { await api("/api/me/sessions", { method: "DELETE" }); await draw(); } catch (err) { showError(error, err); }
  } }, t("people.end_others"));
  box.append(list, h("p", {}, endOthers), error);
  await draw();
}

async function tokensSection(parent) {
  const box = section("tokens", t("people.tokens"), h("p", { class: "muted" }, t("people.tokens_lead")));
  parent.append(box);
  const list = h("ul", { class: "plain", id: "token-list" });
  const shown = h("div", { id: "new-token", role: "status" });
  const error = errorBox("tokens-error");
  const draw = async () => {
    const tokens = await api("/api/me/tokens");
    list.replaceChildren(...(tokens.length ? tokens.map((tk) => h("li", { class: "item" },
      h("span", {}, h("strong", {}, tk.description), " ", h("code", {}, `${tk.hint}…`), " ",
        h("span", { class: "muted" }, `${tk.scopes.map((s) => t(`people.scope.${s}`)).join(", ")} · ${tk.last_used ? t("people.last_used", { when: dateTime(tk.last_used) }) : t("people.never_used")}`)),
      h("button", { type: "button", "aria-label": t("people.revoke_named", { name: tk.description }), onclick: async () => {
        try { await api(`/api/me/tokens/${encodeURIComponent(tk.id)}`, { method: "DELETE" }); await draw(); } catch (err) { showError(error, err); }
      } }, t("people.revoke")))) : [h("li", { class: "muted" }, t("people.no_tokens"))]));
  };
  const scopes = h("fieldset", { class: "scopes" }, h("legend", {}, t("people.scopes")),
    SCOPES.map((s) => h("label", {}, h("input", { type: "checkbox", value: s, checked: s === "read" }), " ", t(`people.scope.${s}`))));
  box.append(list, form("token-form", [
    field(t("people.token_description"), { id: "token-description", name: "description", maxlength: 60, required: true }),
    scopes,
  ], t("people.create_token"), async (values, node) => {
    const chosen = [...node.querySelectorAll(".scopes input:checked")].map((i) => i.value);
    const made = await api("/api/me/tokens", { method: "POST", body: { description: values.description, scopes: chosen } });
    shown.replaceChildren(h("p", { class: "note" }, t("people.token_once")), h("p", {}, h("code", { class: "secret", id: "token-value" }, made.token)));
    node.reset();
    await draw();
  }), shown, error);
  await draw();
}

function codesSection() {
  const left = h("p", { id: "codes-left" });
  const shown = h("div", { id: "new-codes" });
  api("/api/me/recovery-codes").then((r) => { left.textContent = t("people.codes_left", { n: r.left }); }).catch(() => {});
  return section("codes", t("people.codes_title"), h("p", { class: "muted" }, t("people.codes_lead")), left,
    form("codes-form", [field(t("people.password"), { id: "codes-password", name: "password", type: "password", autocomplete: "current-password", required: true })],
      t("people.new_codes"), async (values, node) => {
        const made = await api("/api/me/recovery-codes", { method: "POST", body: values });
        node.reset();
        left.textContent = t("people.codes_left", { n: made.recovery_codes.length });
        shown.replaceChildren(h("p", { class: "note" }, t("people.codes_once")),
          h("ol", { class: "codes" }, made.recovery_codes.map((c) => h("li", {}, h("code", {}, c)))));
      }), shown);
}

function passwordSection() {
  const done = h("p", { role: "status", id: "password-done" });
  return section("password", t("people.change_password"), form("password-form", [
    field(t("people.current_password"), { id: "password-current", name: "current", type: "password", autocomplete: "current-password", required: true }),
    field(t("people.new_password"), { id: "password-new", name: "new", type: "password", autocomplete: "new-password", required: true, minlength: 8 },
      t("people.password_rule")),
  ], t("people.change_password"), async (values, node) => {
    await api("/api/me/password", { method: "POST", body: values });
    node.reset();
    done.textContent = t("people.password_changed");
  }), done);
}

function exportSection(who) {
  return section("export", t("people.your_data"), h("p", { class: "muted" }, t("people.export_lead")),
    h("p", {}, h("a", { class: "button", id: "export-link", href: "/api/me/export", download: `abstracta-${who.name}.json` }, t("people.export"))));
}

function deleteSection() {
  return section("delete", t("people.delete_title"), h("p", { class: "muted" }, t("people.delete_lead")),
    form("delete-form", [field(t("people.password"), { id: "delete-password", name: "password", type: "password", autocomplete: "current-password", required: true })],
      t("people.delete_go"), async (values) => {
        if (!window.confirm(t("people.delete_confirm"))) return;
        await api("/api/me", { method: "DELETE", body: values });
        await whoAmI(true);
        location.hash = "#/";
      }));
}

// ------------------------------------------------------------------------------ names as links
// A player's name as every page shows it (names.js passes these on): a link to the profile
// for an account (`kind` "account"), else the text itself (a guest has no profile).
export const profileHref = (name) => `#/players/${encodeURIComponent(name)}`;
export function personLink(name, kind) {
  if (!name) return name;
  return kind === "account" ? h("a", { href: profileHref(name), class: "person" }, name) : name;
}

// ------------------------------------------------------------------------------ profiles
async function profilePage(app, name, games) {
  let p;
  try {
    p = await api(`/api/players/${encodeURIComponent(name)}`);
  } catch (err) {
    if (err.status !== 404) throw err;
    heading(app, name);
    app.append(h("p", { class: "error", id: "not-found" }, t("people.no_player", { name })));
    return;
  }
  heading(app, p.username);
  app.append(h("p", { class: "muted" }, t("people.member_since", { date: date(p.member_since) })));
  app.append(await challengeOffer(p.username));
  const pools = Object.entries(p.ratings).sort((a, b) => b[1].games - a[1].games);
  const graph = h("figure", { class: "graph", id: "rating-graph" });
  const ratings = section("ratings", t("people.ratings"));
  if (!pools.length) ratings.append(h("p", { class: "muted", id: "no-ratings" }, t("people.no_ratings")));
  else {
    const pick = (key) => {
      drawGraph(graph, p.history[key] || [], `${poolGame(games, p.ratings[key])} · ${speedName(p.ratings[key].speed)}`);
      for (const b of ratings.querySelectorAll("button[data-pool]")) b.setAttribute("aria-pressed", String(b.dataset.pool === key));
    };
    ratings.append(h("table", { class: "people-table", id: "ratings-table" },
      h("thead", {}, h("tr", {}, [t("people.game"), t("people.speed"), t("people.rating"), t("people.games"), t("people.wdl")]
        .map((x, i) => h("th", { scope: "col", class: i === 4 ? "wide" : null }, x)))),
      h("tbody", {}, pools.map(([key, r]) => h("tr", { "data-pool": key },
        h("td", {}, poolGame(games, r)), h("td", {}, speedName(r.speed)),
        h("td", {}, h("button", { type: "button", class: "link", "data-pool": key, "aria-pressed": "false",
          "aria-label": t("people.show_graph", { rating: ratingText(r), pool: `${poolGame(games, r)} · ${speedName(r.speed)}` }),
          onclick: () => pick(key) }, ratingCell(r))),
        h("td", {}, String(r.games)), h("td", { class: "wide" }, `${r.wins} / ${r.draws} / ${r.losses}`))))), graph);
    pick(pools[0][0]);
  }
  app.append(ratings);
  const results = Object.entries(p.results);
  app.append(section("results", t("people.results"), results.length
    ? h("table", { class: "people-table", id: "results-table" },
      h("thead", {}, h("tr", {}, [t("people.game"), t("people.games"), t("people.wins"), t("people.draws"), t("people.losses")].map((x) => h("th", { scope: "col" }, x)))),
      h("tbody", {}, results.map(([game, r]) => h("tr", {}, h("td", {}, gameTitle(games, game)), h("td", {}, String(r.games)),
        h("td", {}, String(r.wins)), h("td", {}, String(r.draws)), h("td", {}, String(r.losses))))))
    : h("p", { class: "muted" }, t("people.no_games"))));
  app.append(section("current", t("people.current_games"), p.current_games.length
    ? h("ul", { class: "plain", id: "current-games" }, p.current_games.map((g) => h("li", {},
      h("a", { href: `#/match/${encodeURIComponent(g.id)}` }, gameTitle(games, g.game)), " ", opponentsWords(g, g.seats))))
    : h("p", { class: "muted" }, t("people.no_current"))));
  app.append(section("recent", t("people.recent_games"), p.recent_games.length
    ? h("ul", { class: "plain lines", id: "recent-games" }, p.recent_games.map((g) => h("li", {},
      // a game deleted since (one nobody else was in) keeps its result but has no page to open
      g.deleted ? h("span", { class: "deleted" }, gameTitle(games, g.game))
        : h("a", { href: `#/match/${encodeURIComponent(g.id)}`, title: t("people.replay") }, gameTitle(games, g.game)), " ",
      opponentsWords(g, [g.seat]), " ",
      h("span", { class: `outcome ${g.outcome}` }, t(`people.outcome.${g.outcome}`)),
      g.rating_change !== null ? h("span", { class: "muted" }, ` ${g.rating_change >= 0 ? "+" : "−"}${Math.abs(g.rating_change)}`) : null,
      h("span", { class: "muted" }, ` · ${g.rated ? t("people.rated") : t("people.casual")} · ${date(g.finished)}${g.deleted ? ` · ${t("people.game_deleted")}` : ""}`))))
    : h("p", { class: "muted" }, t("people.no_games"))));
}

// A profile's way to a game with its player, as on lichess: "Challenge to a game" opens the
// lobby's challenge form with the name filled in (#/lobby?challenge=<name>) for whoever may
// challenge there (an account or a guest); nothing on one's own profile; a visitor signs in or
// plays as a guest first (signing in comes back here, a new guest goes on to the form).
async function challengeOffer(name) {
  const who = await whoAmI();
  const to = `#/lobby?challenge=${encodeURIComponent(name)}`;
  if (who.kind && who.name && who.name.toLowerCase() === name.toLowerCase()) return null;
  if (who.kind) {
    return h("p", { class: "row", id: "challenge-offer" }, h("a", { class: "button primary", id: "challenge-player", href: to }, t("people.challenge")));
  }
  const error = errorBox("challenge-guest-error");
  return h("div", { id: "challenge-offer" }, h("p", {}, t("people.challenge_signed_out", { name })),
    h("p", { class: "row" }, h("a", { class: "button", href: "#/signin", id: "challenge-signin" }, t("people.sign_in")),
      h("button", { type: "button", id: "challenge-guest", onclick: async () => {
        try {
          await becomeGuest();
          location.hash = to;
        } catch (err) { showError(error, err); }
      } }, t("people.play_as_guest"))), error);
}

// "against ben" / "against Computer (level 3)": the other seats of a profile's game (`own`: the
// player's seats), each account a link to its profile; a deleted account reads "deleted player".
function opponentsWords(g, own) {
  const people = new Map((g.opponents || []).map((o) => [o.seat, o]));
  // a game deleted since has no seats to list: the people its result names
  const seats = g.players && g.players.length ? g.players : (g.opponents || []).map(() => "human");
  const order = g.players && g.players.length ? null : (g.opponents || []).map((o) => o.seat);
  const parts = seats.map((spec, k) => {
    const i = order ? order[k] : k;
    if (own.includes(i)) return null;
    const o = people.get(i);
    if (o) return o.kind === "deleted" || !o.name ? t("seat.deleted_player") : personLink(o.name, o.kind); // a guest: no profile
    if (spec.startsWith("level:")) return t("seat.computer_level", { level: spec.slice(6) });
    return t("people.someone"); // a seat held by its token alone (a guest without a session)
  }).filter((x) => x !== null);
  if (!parts.length) return "";
  const out = [t("match.vs"), " "];
  parts.forEach((part, k) => out.push(k ? ", " : "", part));
  return h("span", { class: "opponents" }, ...out);
}

// The rating history of one pool as an SVG line (no chart library): one step per rated game
// (games a minute apart and a month apart take the same room), y by rating, the deviation as a
// band, the first and last dates under its ends; labelled for screen readers with its figures.
function drawGraph(figure, points, title) {
  figure.replaceChildren();
  const W = 640, H = 220, L = 46, R = 12, T = 12, B = 28;
  if (!points.length) return;
  const lo = Math.min(...points.map((x) => x.rating - x.rd)), hi = Math.max(...points.map((x) => x.rating + x.rd));
  const span = Math.max(hi - lo, 50);
  const x = (i) => (points.length === 1 ? (L + W - R) / 2 : L + i / (points.length - 1) * (W - L - R));
  const y = (v) => T + (1 - (v - lo) / span) * (H - T - B);
  const first = points[0], last = points[points.length - 1];
  const label = t("people.graph_label", { pool: title, n: points.length, from: first.rating, to: last.rating });
  const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": label, class: "rating-graph" }, figure);
  for (const v of [lo, lo + span / 2, lo + span]) {
    el("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), class: "grid" }, svg);
    el("text", { x: L - 6, y: y(v) + 4, "text-anchor": "end", class: "axis", text: Math.round(v) }, svg);
  }
  const band = points.map((p, i) => `${x(i)},${y(p.rating + p.rd)}`).concat(points.map((p, i) => `${x(i)},${y(p.rating - p.rd)}`).reverse());
  el("polygon", { points: band.join(" "), class: "band" }, svg);
  el("polyline", { points: points.map((p, i) => `${x(i)},${y(p.rating)}`).join(" "), class: "line" }, svg);
  points.forEach((p, i) => el("circle", { cx: x(i), cy: y(p.rating), r: 3, class: "dot" }, svg));
  el("text", { x: L, y: H - 8, class: "axis", text: date(first.at) }, svg);
  if (points.length > 1) el("text", { x: W - R, y: H - 8, "text-anchor": "end", class: "axis", text: date(last.at) }, svg);
  figure.append(h("figcaption", { class: "muted" }, title));
}

// ------------------------------------------------------------------------------ leaderboards
async function leaderboardsPage(app, games) {
  heading(app, t("people.leaderboards"));
  const pools = await api("/api/leaderboards");
  app.append(h("p", { class: "lead" }, t("people.leaderboards_lead")));
  // where people are rated, most first: of some seventy pools (every variant × speed) a club
  // plays a few, which a list of them all hid among the empty ones
  const peopled = pools.filter((p) => p.players > 0).sort((a, b) => b.players - a.players);
  const name = (p) => `${gameTitle(games, p.game)} — ${t(p.label_key, {}, p.label)} · ${speedName(p.speed)}`;
  app.append(h("h2", {}, t("people.pools_played")), peopled.length
    ? h("ul", { class: "plain pools", id: "pools-played" }, peopled.map((p) => h("li", {},
      h("a", { href: `#/leaderboards/${p.pool}`, class: "pool" }, name(p)), " ",
      h("span", { class: "muted" }, t("people.rated_players", { n: p.players })))))
    : h("p", { class: "muted", id: "pools-played" }, t("people.nobody_rated"), " ", h("a", { href: "#/lobby" }, t("people.to_lobby"))));
  const all = h("section", { class: "pools-all" }, h("h2", {}, t("people.pools_all")));
  app.append(all);
  const byGame = new Map();
  for (const p of pools) {
    if (!byGame.has(p.game)) byGame.set(p.game, new Map());
    const variants = byGame.get(p.game);
    if (!variants.has(p.variant)) variants.set(p.variant, []);
    variants.get(p.variant).push(p);
  }
  for (const [game, variants] of byGame) {
    all.append(h("h3", {}, gameTitle(games, game)), h("ul", { class: "plain pools" }, [...variants.values()].map((list) => h("li", {},
      h("span", { class: "variant" }, t(list[0].label_key, {}, list[0].label)), " ",
      h("span", { class: "speeds" }, SPEEDS.map((s) => list.find((p) => p.speed === s)).filter(Boolean).map((p) => h("a", { href: `#/leaderboards/${p.pool}`, class: p.players ? "pool" : "pool empty" },
        speedName(p.speed), p.players ? h("span", { class: "muted" }, ` (${p.players})`) : null)))))));
  }
}

async function leaderboardPage(app, pool, games) {
  let board;
  try {
    board = await api(`/api/leaderboards/${encodeURIComponent(pool)}`);
  } catch (err) {
    if (err.status !== 404) throw err;
    heading(app, t("people.leaderboards"));
    app.append(h("p", { class: "error", id: "not-found" }, t("people.no_pool")));
    return;
  }
  heading(app, t("people.leaderboard_of", { pool: `${poolGame(games, board)} · ${speedName(board.speed)}` }));
  app.append(h("p", {}, h("a", { href: "#/leaderboards" }, t("people.all_leaderboards"))));
  if (!board.players.length) app.append(h("p", { class: "muted", id: "board-empty" }, t("people.board_empty")));
  else {
    app.append(h("table", { class: "people-table", id: "leaderboard" },
      h("thead", {}, h("tr", {}, [t("people.rank"), t("people.player"), t("people.rating"), t("people.games")].map((x) => h("th", { scope: "col" }, x)))),
      h("tbody", {}, board.players.map((r) => h("tr", {}, h("td", {}, String(r.rank)),
        h("td", {}, personLink(r.username, "account")),
        h("td", {}, ratingCell(r)), h("td", {}, String(r.games)))))));
  }
  // the computer levels' approximate ratings in this variant ("Level 4 ≈ 1650")
  try {
    const levels = (await api("/api/levels"))[`${board.game}.${board.variant}`] || [];
    if (levels.length && app.isConnected) {
      app.append(section("levels", t("people.levels_title"), h("p", { class: "muted" }, t("people.levels_lead")),
        h("ul", { class: "plain levels", id: "level-ratings" }, levels.map((l) => h("li", {}, t("people.level_about", { level: l.level, rating: l.rating }))))));
    }
  } catch { /* the levels' figures are an extra */ }
}
