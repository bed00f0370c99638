package webdriver

// The scripts the device runs in the page. Each is one execute round trip.

// hierarchyScript walks document.body once and returns, as a JSON string,
// the viewport and the element tree in Maestro's web terms
// (maestro-reference §2.2, maestro-web.js), with these refinements:
//   - text: <input>/<textarea> value, else placeholder, else aria-label
//     (checkboxes, radios and other inputs whose value is not text: the
//     aria-label only, where Maestro reports the value "on"); <select> the
//     selected option's text; other elements their direct text nodes,
//     whitespace collapsed and trimmed (Maestro keeps stray newlines and
//     indentation, which no selector can match);
//   - id: the first of id, aria-label, name, title, for (htmlFor),
//     data-testid; label: aria-label; hint: placeholder;
//   - bounds: CSS px in viewport coordinates, rounded as Maestro rounds
//     them, and clipped to the ancestors that clip overflow (a scroll
//     container's hidden rows have no visible area);
//   - elements that are not rendered visibly (display:none, no box,
//     visibility other than visible, zero opacity here or above, or wholly
//     clipped away) are left out; their visible descendants take their
//     place;
//   - enabled, checked, selected and focused from the DOM and ARIA state;
//     scrollable for scroll containers (and the root when the page
//     scrolls).
//
// Elements Maestro skips are skipped: script, noscript, br, img, svg, g,
// path, plus style and template, which never render. opaque says a
// visible canvas, video or embedded frame is on screen: content whose
// changes neither the tree nor the change counter (settledScript) sees.
const hierarchyScript = `
const MARK = null, HITS = null;
` + hierarchyWalk + `
let root = roots.length === 1 && roots[0].c === 'body' ? roots[0] : {b: [0, 0, vw, vh], c: 'body', ch: roots};
const se = document.scrollingElement;
if (!root.sc && se && (se.scrollHeight > se.clientHeight + 1)) root.sc = 'vertical';
return JSON.stringify({w: vw, h: vh, loading: document.readyState !== 'complete', opaque: opaque, root: root});
`

// hierarchyWalk is the body of hierarchyScript and cssScript: it walks
// document.body into roots. Where MARK (a Set of elements, or null) holds
// the element, it also adds the element's node, without its children, to
// HITS: the node as the hierarchy has it, so the runtime can find it there.
const hierarchyWalk = `
const SKIP = new Set(['SCRIPT','NOSCRIPT','BR','IMG','SVG','G','PATH','STYLE','TEMPLATE']);
const NOVALUE = new Set(['checkbox', 'radio', 'hidden', 'file', 'range', 'color']);
const active = document.activeElement;
const vw = window.innerWidth, vh = window.innerHeight;
const INF = 1e9;
const attr = (el, n) => { const v = el.getAttribute(n); return v == null ? '' : v; };
const textOf = (el) => {
  const tag = el.tagName;
  if (tag === 'INPUT' && NOVALUE.has((el.type || '').toLowerCase())) return attr(el, 'aria-label');
  if (tag === 'INPUT' || tag === 'TEXTAREA') return el.value || el.placeholder || attr(el, 'aria-label');
  if (tag === 'SELECT') { const o = el.selectedOptions && el.selectedOptions[0]; return o ? o.text.trim() : ''; }
  let s = '';
  for (const c of el.childNodes) if (c.nodeType === 3) s += c.data;
  return s.replace(/\s+/g, ' ').trim();
};
const idOf = (el) => el.id || attr(el, 'aria-label') || attr(el, 'name') || el.title || el.htmlFor || attr(el, 'data-testid') || '';
const shown = (el, st) => {
  if (el.checkVisibility) return el.checkVisibility({opacityProperty: true, visibilityProperty: true});
  if (st.visibility !== 'visible' || el.getClientRects().length === 0) return false;
  for (let e = el; e && e.nodeType === 1; e = e.parentElement) if (parseFloat(getComputedStyle(e).opacity) === 0) return false;
  return true;
};
const scrolls = (v) => v === 'auto' || v === 'scroll' || v === 'overlay';
const OPAQUE = new Set(['CANVAS', 'VIDEO', 'IFRAME', 'EMBED', 'OBJECT']);
let opaque = false;
const walk = (el, clip, out) => {
  if (SKIP.has(el.tagName.toUpperCase())) return;
  const st = getComputedStyle(el);
  if (st.display === 'none') return;
  if (st.position === 'fixed') clip = [-INF, -INF, INF, INF];
  const r = el.getBoundingClientRect();
  const x1 = Math.max(r.left, clip[0]), y1 = Math.max(r.top, clip[1]);
  const x2 = Math.min(r.right, clip[2]), y2 = Math.min(r.bottom, clip[3]);
  const clipped = x2 < x1 || y2 < y1 || (r.width > 0 && x2 === x1) || (r.height > 0 && y2 === y1);
  let inner = clip;
  if (st.overflowX !== 'visible' || st.overflowY !== 'visible') {
    const l = r.left + el.clientLeft, t = r.top + el.clientTop;
    inner = [Math.max(clip[0], l), Math.max(clip[1], t), Math.min(clip[2], l + el.clientWidth), Math.min(clip[3], t + el.clientHeight)];
  }
  const kids = [];
  for (const c of el.children) walk(c, inner, kids);
  if (clipped || !shown(el, st)) { for (const k of kids) out.push(k); return; }
  if (OPAQUE.has(el.tagName.toUpperCase())) opaque = true;
  const bx = Math.round(x1), by = Math.round(y1);
  const n = {b: [bx, by, Math.round(x2) - bx, Math.round(y2) - by], c: el.tagName.toLowerCase()};
  const t = textOf(el); if (t) n.t = t;
  const id = idOf(el); if (id) n.i = id;
  const lab = attr(el, 'aria-label'); if (lab) n.l = lab;
  if (el.placeholder) n.h = el.placeholder;
  let disabled = attr(el, 'aria-disabled') === 'true';
  try { disabled = disabled || el.matches(':disabled'); } catch (e) {}
  if (disabled) n.d = 1;
  if (el.checked === true || attr(el, 'aria-checked') === 'true') n.k = 1;
  if (el.selected === true || attr(el, 'aria-selected') === 'true') n.s = 1;
  if (el === active && el !== document.body) n.f = 1;
  if (scrolls(st.overflowY) && el.scrollHeight > el.clientHeight) n.sc = 'vertical';
  else if (scrolls(st.overflowX) && el.scrollWidth > el.clientWidth) n.sc = 'horizontal';
  if (MARK !== null && MARK.has(el)) HITS.push(Object.assign({}, n));
  if (kids.length) n.ch = kids;
  out.push(n);
};
const roots = [];
if (document.body) walk(document.body, [-INF, -INF, INF, INF], roots);
`

// cssScript runs the CSS selector arguments[0] in the page (Maestro's
// maestro-web.js queryCss: document.querySelectorAll) and answers, as a
// JSON string, {hits}: the matched elements that the hierarchy holds,
// each as hierarchyScript shows it, without children, in document order.
// Matched elements the hierarchy leaves out (not rendered, clipped away)
// are not hits. A selector querySelectorAll refuses (it throws a
// SyntaxError DOMException) answers {bad: the browser's message}.
//
// One script walks the page as hierarchyScript does rather than asking
// W3C POST /elements with "css selector": that returns element
// references, and telling which hierarchy node each one is would take a
// rect request per element and still miss the clipping the hierarchy
// applies to bounds.
const cssScript = `
let MARK;
try { MARK = new Set(document.querySelectorAll(arguments[0])); } catch (e) { return JSON.stringify({bad: String(e && e.message || e)}); }
const HITS = [];
` + hierarchyWalk + `
return JSON.stringify({hits: HITS});
`

// settledScript waits until the page has been quiet for arguments[0]
// consecutive frames (no DOM mutation, no scroll, no finite animation or
// transition running, document loaded), or arguments[1] ms have passed,
// then answers {settled, ms, frames, why, tree} with tree the
// hierarchyScript's JSON and why "quiet", "limit" or "watchdog".
// Infinite animations (spinners) do not count: they change no element's
// attributes or bounds, which is what Maestro's settle compares.
//
// The answer also carries version, "document:count": the document's own
// random name and a counter that passive listeners, added once per
// document, bump on every DOM mutation, scroll, input, change, toggle and
// focus move. Equal versions mean nothing the page shows changed in
// between, except inside opaque content; the runtime uses them where
// Maestro compares screenshots.
const settledScript = `
const done = arguments[arguments.length - 1];
if (!window.__flowChanges) {
  const c = window.__flowChanges = {doc: Math.random().toString(36).slice(2), seq: 0};
  const bump = () => { c.seq++; };
  new MutationObserver(bump).observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
  for (const t of ['scroll', 'input', 'change', 'toggle', 'focusin', 'focusout']) document.addEventListener(t, bump, {capture: true, passive: true});
  if (window.visualViewport) { visualViewport.addEventListener('scroll', bump); visualViewport.addEventListener('resize', bump); }
}
const quiet = arguments[0], limit = arguments[1];
const start = performance.now();
let changed = false, still = 0, frames = 0, over = false;
const mark = () => { changed = true; };
const mo = new MutationObserver(mark);
mo.observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
document.addEventListener('scroll', mark, {capture: true, passive: true});
const busy = () => document.readyState !== 'complete' || (document.getAnimations ? document.getAnimations().some(a =>
  a.playState === 'running' && a.effect && a.effect.getComputedTiming().iterations !== Infinity) : false);
const finish = (settled, why) => {
  if (over) return;
  over = true;
  mo.disconnect();
  document.removeEventListener('scroll', mark, {capture: true});
  const tree = (function () {` + hierarchyScript + `})();
  done({settled: settled, ms: Math.round(performance.now() - start), frames: frames, why: why, tree: tree,
    version: window.__flowChanges.doc + ':' + window.__flowChanges.seq});
};
const tick = () => {
  if (over) return;
  frames++;
  if (changed || busy()) { changed = false; still = 0; } else { still++; }
  if (still >= quiet) return finish(true, 'quiet');
  if (performance.now() - start > limit) return finish(false, 'limit');
  requestAnimationFrame(tick);
};
setTimeout(() => finish(false, 'watchdog'), limit + 250);
requestAnimationFrame(tick);
`

// viewportScript reads the interaction viewport: the window's inner size in
// CSS px, what W3C pointer actions address with origin "viewport".
const viewportScript = `return [window.innerWidth, window.innerHeight];`

// framesScript keeps the page producing frames for arguments[0] ms with an
// empty requestAnimationFrame loop, and answers [touchAction, marked]:
// whether the touch starting at (arguments[1], arguments[2]) lands where
// touch-action is none (on the element there or an ancestor), and whether
// this document carries the multi-touch mark; arguments[3] sets the mark.
// An idle page produces frames only on demand, and Chromium then takes two
// frames or more per touch move while it scrolls; with frames flowing
// every move tick costs one frame, the cost the calibration measured.
// Where touch-action is none, Chromium also spends a frame on each move
// inside the touch slop; elsewhere it does not. The loop ends by itself.
//
// It also resets the page's record of the gesture's touch span, which
// passive capturing listeners (added once per document) fill in: when the
// first touch went down and when the last one lifted, by the events' own
// timestamps. settleScript reads it back, so the device learns each
// gesture's observed duration without another round trip.
const framesScript = `
if (!window.__flowTouchSpan) {
  const opts = {capture: true, passive: true};
  window.addEventListener('touchstart', e => { const s = window.__flowTouchSpan; if (s.down === null) s.down = e.timeStamp; }, opts);
  const lift = e => { if (e.touches.length === 0) window.__flowTouchSpan.up = e.timeStamp; };
  window.addEventListener('touchend', lift, opts);
  window.addEventListener('touchcancel', lift, opts);
}
window.__flowTouchSpan = {down: null, up: null};
const until = performance.now() + arguments[0];
const f = () => { if (performance.now() < until) requestAnimationFrame(f); };
requestAnimationFrame(f);
const marked = window.__flowMultiTouch === true;
if (arguments[3]) window.__flowMultiTouch = true;
for (let el = document.elementFromPoint(arguments[1], arguments[2]); el; el = el.parentElement) {
  if (getComputedStyle(el).touchAction === 'none') return ['none', marked];
}
return ['auto', marked];
`

// markedScript tells whether this document carries the multi-touch mark
// (see Device.touchReady).
const markedScript = `return window.__flowMultiTouch === true;`

// readyScript reports document.readyState.
const readyScript = `return document.readyState;`

// settleScript waits until nothing on the page has scrolled for
// arguments[0] consecutive frames, or arguments[1] ms have passed. Once
// anything scrolled, the quiet must also last arguments[2] ms: the tail
// of a compositor fling moves a pixel only every few frames, and a loaded
// machine drops frames, so three frames alone ended the wait before the
// last pixel (CI saw 2848 → 2849 after the device returned). Scroll
// events do not bubble, so one capturing listener on the document sees the
// page and every scroll container; the visual viewport reports pinch-zoom
// panning. It answers {settled, ms, frames, why, touch}, touch the span
// framesScript's listeners recorded.
const settleScript = `
const done = arguments[arguments.length - 1];
const quiet = arguments[0], limit = arguments[1], tail = arguments[2];
const start = performance.now();
let moved = false, still = 0, frames = 0, over = false, last = -1;
const mark = () => { moved = true; last = performance.now(); };
const vv = window.visualViewport;
document.addEventListener('scroll', mark, {capture: true, passive: true});
if (vv) { vv.addEventListener('scroll', mark); vv.addEventListener('resize', mark); }
const finish = (settled) => {
  if (over) return;
  over = true;
  document.removeEventListener('scroll', mark, {capture: true});
  if (vv) { vv.removeEventListener('scroll', mark); vv.removeEventListener('resize', mark); }
  done({settled: settled, ms: Math.round(performance.now() - start), frames: frames, why: settled ? "quiet" : "limit",
    touch: window.__flowTouchSpan || null});
};
const tick = () => {
  if (over) return;
  frames++;
  if (moved) { moved = false; still = 0; } else { still++; }
  if (still >= quiet && (last < 0 || performance.now() - last >= tail)) return finish(true);
  if (performance.now() - start > limit) return finish(false);
  requestAnimationFrame(tick);
};
setTimeout(() => finish(false), limit + 250);
requestAnimationFrame(tick);
`

// clearStorageScript clears what the current document's origin stored:
// local and session storage, IndexedDB databases and Cache Storage. It is
// the fallback for endpoints without Chromium's DevTools bridge.
const clearStorageScript = `
const done = arguments[arguments.length - 1];
const jobs = [];
try { localStorage.clear(); } catch (e) {}
try { sessionStorage.clear(); } catch (e) {}
try {
  if (indexedDB && indexedDB.databases) jobs.push(indexedDB.databases().then(dbs => Promise.all(dbs.map(d => new Promise(r => {
    const q = indexedDB.deleteDatabase(d.name); q.onsuccess = q.onerror = q.onblocked = () => r(); })))));
} catch (e) {}
try { if (window.caches) jobs.push(caches.keys().then(ks => Promise.all(ks.map(k => caches.delete(k))))); } catch (e) {}
Promise.all(jobs).then(() => done(location.origin), () => done(location.origin));
`

// calibrationPage is the blank page the per-tick cost is measured on: one
// full-screen area that keeps every touch (touch-action: none) and a
// recorder of touch events with the page's own timestamps.
const calibrationPage = `<!doctype html><html><head><meta name="viewport" content="width=device-width,initial-scale=1">
<style>html,body{margin:0;height:100%;overflow:hidden}#pad{position:fixed;left:0;top:0;right:0;bottom:0;touch-action:none}</style>
</head><body><div id="pad"></div><script>
window.__flowTouches = [];
for (const t of ['touchstart', 'touchmove', 'touchend']) document.addEventListener(t, e => {
  const p = e.touches.length ? e.touches[0] : e.changedTouches[0];
  window.__flowTouches.push([t, e.timeStamp, p.clientX, e.touches.length]);
}, {capture: true, passive: true});
</script></body></html>`

// calibrationEvents reads and clears the calibration page's record.
const calibrationEvents = `const e = window.__flowTouches || []; window.__flowTouches = []; return e;`
