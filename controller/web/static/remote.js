// The remote: the sign-in form, the settings as the table offers them, its commands, each
// answered beside the control that sent it (as same-origin JSON posts). Loaded after
// evening.js and before app.js, whose stream and helpers ($, text) it uses once the page
// runs.
"use strict";

let settingsModel = null; // the table's /remote: its settings, their texts, the dispense
let settings = {}; // the settings' values, as the stream last said them

// Each answer shows beside the control that asked: in the answer line of that control's row.
function say(row, message, refused) {
  let answer = row.querySelector(":scope > .answer");
  if (!answer) {
    answer = document.createElement("p");
    answer.className = "answer";
    answer.setAttribute("role", "status");
    answer.setAttribute("aria-live", "polite");
    row.append(answer);
  }
  text(answer, message);
  answer.classList.toggle("refused", Boolean(refused));
}

class Refused extends Error {
  constructor(message, status) { super(message); this.status = status; }
}

async function post(path, body) {
  const response = await fetch(path, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
    credentials: "same-origin",
  });
  const answer = await response.json().catch(() => ({ error: `${response.status}` }));
  if (response.status === 401) { // the refusal a person meets most, in the page's words
    throw new Refused(path === "/login" ? _("wrong password") : _("sign in first"), 401);
  }
  if (!response.ok) throw new Refused(answer.error || `${response.status}`, response.status);
  return answer;
}

async function loadRemote() {
  const response = await fetch(`/remote?lang=${language}`, { credentials: "same-origin" });
  const remote = await response.json();
  settingsModel = remote;
  nameSettings(remote.settings);
  $("remote-off").hidden = remote.password_set;
  $("jump").hidden = !remote.signed_in;
  if (remote.signed_in) {
    putSignInBack();
    $("controls").hidden = false;
    if (!$("settings").children.length) buildControls(remote);
  } else if (remote.password_set && (!$("controls").hidden || $("login").hidden)) {
    // Signed out (here, elsewhere, by a restart or an expiry): the form takes the
    // controls' place, and the operator's eyes if they were on them.
    const looking = inView($("controls")) || inView($("remote-title"));
    $("controls").hidden = true;
    putSignInBack();
    $("settings").replaceChildren();
    showSignIn(null, looking);
  }
  return remote;
}

// The sign-in form's home: the top of the page, the first thing a phone shows.
function putSignInBack() {
  $("login").hidden = true;
  $("login").querySelector(".answer")?.remove();
  $("top").prepend($("login"));
}

// The sign-in form right after `place` (a control that was refused for want of it), or at
// the top; focused (and so on a phone's screen) if `looking`.
function showSignIn(place, looking) {
  const form = $("login");
  if (place) place.after(form);
  else $("top").prepend(form);
  form.hidden = false;
  if (looking) {
    $("password").focus({ preventScroll: true });
    form.scrollIntoView({ block: "nearest" });
  }
}

function inView(element) {
  if (element.hidden || !element.getClientRects().length) return false;
  const box = element.getBoundingClientRect();
  return box.bottom > 0 && box.top < window.innerHeight;
}

// A control's request, answered beside it; "sign in first" brings the form there.
async function ask(row, path, body, done) {
  try {
    const answer = await post(path, body);
    // The table was there already, or did less than asked (a dispense cut short): it says.
    say(row, answer.said || done, answer.whole === false);
    return answer;
  } catch (err) {
    say(row, err.message, true);
    if (err.status === 401) showSignIn(row, true);
    throw err;
  }
}

function buildControls(remote) {
  const box = $("settings");
  box.replaceChildren();
  for (const setting of remote.settings) {
    const row = document.createElement("div");
    row.className = "setting";
    const label = document.createElement("label");
    label.htmlFor = `set-${setting.key}`;
    label.textContent = setting.label;
    const select = document.createElement("select");
    select.id = `set-${setting.key}`;
    select.name = setting.key;
    for (const option of setting.options) {
      const item = document.createElement("option");
      item.value = JSON.stringify(option.value);
      item.textContent = option.text;
      select.append(item);
    }
    // What the chosen value does, as the LCD menu says it while a value is chosen.
    const about = document.createElement("p");
    about.className = "about";
    about.id = `about-${setting.key}`;
    select.setAttribute("aria-describedby", about.id);
    select.addEventListener("change", () => {
      explain(setting, select);
      change(setting, select, row);
    });
    row.append(label, select, about);
    box.append(row);
  }
  const dispense = $("dispense");
  $("dispense-box").hidden = !remote.dispense;
  if (remote.dispense) {
    dispense.replaceChildren(...Array.from({ length: remote.dispense.max }, (unused, i) => {
      const item = document.createElement("option");
      item.value = String(i + 1);
      item.textContent = ngettext("{n} card", "{n} cards", i + 1);
      return item;
    }));
  }
  showSettings(settings);
}

function explain(setting, select) {
  const option = setting.options.find((o) => JSON.stringify(o.value) === select.value);
  text($(`about-${setting.key}`), option ? option.about : setting.about);
}

async function change(setting, select, row) {
  const chosen = _("{setting}: {value}", { setting: setting.label, value: select.selectedOptions[0].textContent });
  await ask(row, "/settings", { [setting.key]: JSON.parse(select.value) }, chosen)
    .catch(() => showSettings(settings));
}

function showSettings(values) {
  settings = values;
  for (const [key, value] of Object.entries(values)) {
    const select = $(`set-${key}`);
    if (!select) continue;
    select.value = JSON.stringify(value);
    const setting = settingsModel?.settings?.find((s) => s.key === key);
    if (setting) explain(setting, select);
  }
}

function command(row, action, extra = {}) {
  // What the remote says when the table has done it (a name and points say their own).
  const done = { start: _("Done: start"), pause: _("Done: pause"), resume: _("Done: resume"),
    new_round: _("Done: new round"), dispense: _("Done: dispense") }[action];
  ask(row, "/command", { action, ...extra }, done).catch(() => {});
}

function wire() {
  $("login").addEventListener("submit", async (e) => {
    e.preventDefault();
    const password = $("password").value;
    $("password").value = "";
    try {
      await post("/login", { password });
      await loadRemote();
      say($("actions"), _("Signed in."));
      if (source) source.close(); // again, as this session's: its end reaches this page
      connect();
    } catch (err) {
      say($("login"), err.message, true);
    }
  });
  $("logout").addEventListener("click", async () => {
    await post("/logout", {}).catch(() => {});
    await loadRemote();
    say($("login"), _("Signed out."));
  });
  for (const button of document.querySelectorAll("button[data-action]")) {
    button.addEventListener("click", () => {
      $("confirm").hidden = true;
      command($("actions"), button.dataset.action);
    });
  }
  $("new-round").addEventListener("click", () => { $("confirm").hidden = false; $("confirm-yes").focus(); });
  $("confirm-no").addEventListener("click", () => { $("confirm").hidden = true; });
  $("deal").addEventListener("click", () => command($("dispense-box"), "dispense", { cards: Number($("dispense").value) }));
}

