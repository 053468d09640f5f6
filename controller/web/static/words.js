// The page's words in its reader's language: English as written here, German or Chinese
// from the table's catalog (/words/de.json, the `web` domain). Every text a page shows goes
// through `_(text, fields)` or `ngettext(one, many, n, fields)`, which Babel's JavaScript
// extractor finds; a text of the HTML is marked `data-t` (its content, each child element a
// `{field}` named by its `data-field`), and its `aria-label` and `placeholder` are messages
// too. Fields are `{name}` in every language, filled here. Loaded first; the other scripts
// start once `wordsReady` holds.
"use strict";

const LANGUAGE_NAMES = { en: "English", de: "Deutsch", zh: "中文" };
const CHOSEN = "flashtable-language"; // localStorage: the language picked on the page

let words = {}; // msgid: its text, or its plural forms in the catalog's order; "": Plural-Forms
let pluralRule = (n) => (n === 1 ? 0 : 1); // English's

// The page's language: a `?lang=` of its address, the one picked on the page, the browser's
// first the table has (de-AT reads as de, zh-TW as zh), else English.
function pageLanguage() {
  const asked = [new URLSearchParams(location.search).get("lang"), remembered()];
  for (const tag of [...asked, ...navigator.languages]) {
    const language = (tag || "").toLowerCase().split("-")[0];
    if (Object.hasOwn(LANGUAGE_NAMES, language)) return language;
  }
  return "en";
}

// The language picked on the page before, if the browser keeps it (it may refuse storage).
function remembered() {
  try {
    return localStorage.getItem(CHOSEN);
  } catch (err) {
    return null;
  }
}

const language = pageLanguage();

function fill(text, fields) {
  if (!fields) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (Object.hasOwn(fields, name) ? String(fields[name]) : whole));
}

// A text the page has as it comes (a light's meaning, the HTML's), in the page's language.
function translated(text) {
  const found = words[text];
  return typeof found === "string" && found ? found : text;
}

function _(text, fields) {
  return fill(translated(text), fields);
}

// A number as the page's language writes it ("2,5" in German), with `digits` decimals at most
// (exactly, with `exact`).
function decimal(number, digits, exact = false) {
  return number.toLocaleString(language, { maximumFractionDigits: digits, minimumFractionDigits: exact ? digits : 0 });
}

// A count's text in the form the language gives it (`{n}` is the count).
function ngettext(one, many, n, fields) {
  const forms = words[one];
  const text = Array.isArray(forms) && forms.every(Boolean) ? forms[pluralRule(n)] ?? forms[0]
    : n === 1 ? one : many;
  return fill(text, { n, ...fields });
}

// The catalog's Plural-Forms expression (C: n, numbers, ! % < <= > >= == != && || ?: and
// parentheses) as a function of n, read without eval (the page's policy allows none).
function pluralFunction(expression) {
  const tokens = expression.match(/\d+|n|&&|\|\||[=!<>]=|[-+*/%<>!?:()]/g) || [];
  let at = 0;
  const take = () => tokens[at++];
  const peek = () => tokens[at];
  const binary = [["||"], ["&&"], ["==", "!="], ["<", "<=", ">", ">="], ["+", "-"], ["*", "/", "%"]];
  const apply = { "||": (a, b) => a || b, "&&": (a, b) => a && b, "==": (a, b) => a === b,
    "!=": (a, b) => a !== b, "<": (a, b) => a < b, "<=": (a, b) => a <= b, ">": (a, b) => a > b,
    ">=": (a, b) => a >= b, "+": (a, b) => a + b, "-": (a, b) => a - b, "*": (a, b) => a * b,
    "/": (a, b) => Math.trunc(a / b), "%": (a, b) => a % b };
  const unary = () => {
    const token = take();
    if (token === "!") { const operand = unary(); return (n) => Number(!operand(n)); }
    if (token === "(") { const inner = conditional(); take(); return inner; }
    if (token === "n") return (n) => n;
    const value = Number(token);
    return () => value;
  };
  const level = (i) => {
    if (i === binary.length) return unary();
    let left = level(i + 1);
    while (binary[i].includes(peek())) {
      const op = apply[take()], a = left, b = level(i + 1);
      left = (n) => Number(op(a(n), b(n)));
    }
    return left;
  };
  const conditional = () => {
    const test = level(0);
    if (peek() !== "?") return test;
    take();
    const yes = conditional();
    take(); // ":"
    const no = conditional();
    return (n) => (test(n) ? yes(n) : no(n));
  };
  return conditional();
}

// The page's HTML texts in the page's language (once, before the scripts build anything).
function translatePage() {
  document.documentElement.lang = language;
  for (const element of document.querySelectorAll("[data-t]")) {
    const parts = {};
    let msgid = "";
    for (const node of element.childNodes) {
      if (node.nodeType === Node.TEXT_NODE) msgid += node.textContent;
      else { parts[node.dataset.field] = node; msgid += `{${node.dataset.field}}`; }
    }
    const pieces = translated(msgid.replace(/\s+/g, " ").trim()).split(/\{(\w+)\}/);
    element.replaceChildren(...pieces.map((piece, i) => (i % 2 ? parts[piece] : piece)));
  }
  for (const name of ["aria-label", "placeholder"]) {
    for (const element of document.querySelectorAll(`[${name}]`)) {
      element.setAttribute(name, translated(element.getAttribute(name)));
    }
  }
}

// The choice of language, where the page has one: remembered here, and the page read again.
function offerLanguages(select) {
  select.replaceChildren(...Object.entries(LANGUAGE_NAMES).map(([code, name]) => {
    const option = document.createElement("option");
    option.value = code;
    option.lang = code;
    option.textContent = name;
    return option;
  }));
  select.value = language;
  select.addEventListener("change", () => {
    const address = new URL(location.href);
    address.searchParams.delete("lang"); // the choice, not an address's, from now on
    try {
      localStorage.setItem(CHOSEN, select.value);
    } catch (err) { // not kept by this browser: this visit's address says it
      address.searchParams.set("lang", select.value);
    }
    location.assign(address);
  });
}

async function loadWords() {
  if (language !== "en") {
    try {
      const response = await fetch(`/words/${language}.json`);
      if (!response.ok) throw new Error(`${response.status}`);
      words = await response.json();
      pluralRule = pluralFunction(/plural=([^;]*)/.exec(words[""])[1]);
    } catch (err) { // no catalog: the page in English, as written
      words = {};
    }
  }
  translatePage();
}

const wordsReady = loadWords();
