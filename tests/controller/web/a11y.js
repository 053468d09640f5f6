// An automated check of the page's contrast and labels (WCAG 2.1 AA): every visible text
// against the background it is drawn on, every control with an accessible name. Returns a
// list of the problems found, empty when there are none.
const problems = [];
function rgba(text) {
  const m = text.match(/rgba?\(([^)]+)\)/);
  if (!m) return [0, 0, 0, 0];
  const p = m[1].split(",").map((x) => parseFloat(x));
  return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
}
function luminance([r, g, b]) {
  const c = [r, g, b].map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
  return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
}
function background(el) {
  for (let e = el; e; e = e.parentElement) {
    const c = rgba(getComputedStyle(e).backgroundColor);
    if (c[3] > 0) return c;
  }
  return rgba(getComputedStyle(document.documentElement).backgroundColor)[3] ? rgba(getComputedStyle(document.documentElement).backgroundColor) : [255, 255, 255, 1];
}
function visible(el) {
  const s = getComputedStyle(el);
  const r = el.getBoundingClientRect();
  return s.visibility !== "hidden" && s.display !== "none" && r.width > 0 && r.height > 0 && !el.closest("[hidden]");
}
for (const el of document.querySelectorAll("body *")) {
  const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
  if (!own || !visible(el)) continue;
  const s = getComputedStyle(el);
  const fg = rgba(s.color), bg = background(el);
  const l1 = luminance(fg), l2 = luminance(bg);
  const ratio = (Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05);
  const size = parseFloat(s.fontSize), bold = parseInt(s.fontWeight, 10) >= 700;
  const large = size >= 24 || (bold && size >= 18.66);
  if (ratio < (large ? 3 : 4.5)) problems.push(`contrast ${ratio.toFixed(2)} of "${el.textContent.trim().slice(0, 30)}" (${el.tagName}#${el.id})`);
}
for (const el of document.querySelectorAll("input, select, textarea")) {
  if (!visible(el)) continue;
  if (!(el.labels && el.labels.length) && !el.getAttribute("aria-label")) problems.push(`no label: ${el.tagName}#${el.id}`);
}
for (const el of document.querySelectorAll("button")) {
  if (visible(el) && !el.textContent.trim() && !el.getAttribute("aria-label")) problems.push(`no name: button#${el.id}`);
}
for (const el of document.querySelectorAll("[role=progressbar], ul, ol, pre")) {
  if (visible(el) && el.matches("[role=progressbar]") && !el.getAttribute("aria-label")) problems.push(`no name: ${el.id}`);
}
for (const el of document.querySelectorAll("img")) if (!el.alt) problems.push(`no alt: img ${el.src}`);
if (!document.documentElement.lang) problems.push("no lang on <html>");
for (const el of document.querySelectorAll("button, select, input")) {
  const r = el.getBoundingClientRect();
  if (visible(el) && (r.height < 44 || r.width < 44)) problems.push(`touch target ${Math.round(r.width)}x${Math.round(r.height)}: ${el.tagName}#${el.id}`);
}
return problems;
