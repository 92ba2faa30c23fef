// The account in the lobby's top bar: sign up, sign in, play as a guest, sign out, the links to
// the profile and the leaderboard; and the create form's "rated" switch. The session is an
// HttpOnly cookie the server sets: this page never sees it, it asks /api/account/me.

import "./account-texts.js";
import { api, make } from "./api.js";
import { applyLabels, errorText, onLangChange, t } from "./i18n.js";

const $ = (id) => document.getElementById(id);
let me = null;  // {id, name, guest, created} or null
const changed = [];

/** The account signed in now (null: none), as last asked. */
export function account() { return me; }

/** Call ``fn`` whenever the account signed in changes. */
export function onAccount(fn) { changed.push(fn); }

async function refresh() {
  try { me = (await api("/api/account/me")).account; } catch { me = null; }
  render();
}

function set(account) {
  me = account;
  render();
  for (const fn of changed) fn(me);
}

/** A guest session unless one is signed in already (to play a rated table at once). */
export async function ensureSession() {
  if (!me) set((await api("/api/account/guest", { method: "POST" })).account);
  return me;
}

/** What the create form adds to a new table's request: rated, with a session to hold it. */
export async function tableExtras() {
  const rated = $("c-rated");
  if (!rated || !rated.checked) return {};
  await ensureSession();
  return { rated: true };
}

// -- the bar ---------------------------------------------------------------------------------

function render() {
  const bar = $("account");
  if (!bar) return;
  bar.replaceChildren();
  const board = make("a", "account-link", t("acc.leaderboard"));
  board.href = "/leaderboard";
  board.id = "account-leaderboard";
  bar.appendChild(board);
  if (me) {
    const name = make("a", "account-link account-name", me.name);
    name.id = "account-name";
    name.href = `/profile/${encodeURIComponent(me.name)}`;
    bar.appendChild(name);
    if (me.guest) {
      bar.appendChild(make("span", "badge", t("acc.guest.badge")));
      bar.appendChild(button("account-signup", t("acc.keep"), () => openForm("signup")));
    }
    bar.appendChild(button("account-signout", t("acc.signout"), signOut));
  } else {
    bar.appendChild(button("account-signin", t("acc.signin"), () => openForm("signin")));
    bar.appendChild(button("account-signup", t("acc.signup"), () => openForm("signup")));
    bar.appendChild(button("account-guest", t("acc.guest"), () => ensureSession().catch(shown)));
  }
}

function button(id, label, onClick) {
  const b = make("button", "small", label);
  b.id = id;
  b.type = "button";
  b.addEventListener("click", onClick);
  return b;
}

function shown(err) {
  const box = $("account-dialog");
  let line = box && box.open ? $("account-error") : $("account-note");
  if (!line) {
    line = make("span", "account-note");
    line.id = "account-note";
    $("account").appendChild(line);
  }
  line.textContent = errorText(err.code, err.message);
}

async function signOut() {
  try {
    await api("/api/account/signout", { method: "POST" });
    set(null);
  } catch (err) { shown(err); }
}

// -- the sign-in and sign-up form -------------------------------------------------------------

function dialog() {
  let box = $("account-dialog");
  if (box) return box;
  box = make("dialog", "account-dialog");
  box.id = "account-dialog";
  const form = make("form", "account-form");
  form.id = "account-form";
  form.method = "dialog";
  const title = make("h2");
  title.id = "account-title";
  const name = make("input");
  name.id = "account-user";
  name.autocomplete = "username";
  name.maxLength = 24;
  name.required = true;
  const password = make("input");
  password.id = "account-password";
  password.type = "password";
  password.minLength = 8;
  password.maxLength = 256;
  password.required = true;
  const nameLabel = make("label");
  nameLabel.append(make("span", "", ""), name);
  nameLabel.firstChild.dataset.i18n = "acc.name";
  const passLabel = make("label");
  passLabel.append(make("span", "", ""), password);
  passLabel.firstChild.dataset.i18n = "acc.password";
  const row = make("div", "row");
  const submit = make("button", "primary");
  submit.id = "account-submit";
  submit.type = "submit";
  const cancel = make("button");
  cancel.type = "button";
  cancel.dataset.i18n = "acc.cancel";
  cancel.addEventListener("click", () => box.close());
  row.append(submit, cancel);
  const error = make("p", "error");
  error.id = "account-error";
  form.append(title, nameLabel, passLabel, row, error);
  box.appendChild(form);
  document.body.appendChild(box);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    error.textContent = "";
    const mode = box.dataset.mode;
    try {
      const got = await api(`/api/account/${mode}`, { method: "POST",
        body: { name: name.value.trim(), password: password.value } });
      password.value = "";
      box.close();
      set(got.account);
    } catch (err) {
      error.textContent = errorText(err.code, err.message);
    }
  });
  return box;
}

function openForm(mode) {
  const box = dialog();
  box.dataset.mode = mode;
  const password = $("account-password");
  password.autocomplete = mode === "signup" ? "new-password" : "current-password";
  $("account-title").dataset.i18n = mode === "signup" ? "acc.signup" : "acc.signin";
  $("account-submit").dataset.i18n = mode === "signup" ? "acc.signup" : "acc.signin";
  $("account-error").textContent = "";
  applyLabels(box);
  if (!box.open) box.showModal();
  $("account-user").focus();
}

// -- the rated switch ----------------------------------------------------------------------------

function hookRated() {
  const rated = $("c-rated");
  if (!rated) return;
  rated.addEventListener("change", () => {
    const note = $("c-rated-note");
    if (note) note.textContent = rated.checked ? t("acc.rated.needs") : "";
    if (!rated.checked) return;
    // A rated table plays a number of deals with the server's shuffles and the preset as it is.
    if (!$("c-deals").value) $("c-deals").value = "1";
    $("c-seed").value = "";
    $("c-options").value = "";
  });
}

function init() {
  render();
  hookRated();
  onLangChange(() => render());
  refresh();
}

init();
