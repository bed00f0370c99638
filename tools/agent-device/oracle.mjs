#!/usr/bin/env node
// Oracle for the Go gesture planner: runs agent-device 0.21.5's own planner,
// normalization, swipe-series validation, Android lowering and WebDriver
// lowering over generated cases and prints one JSON object per line:
//
//   {"name": "...", "case": {...}, "want": {...}}
//
// The line format is documented in tools/agent-device/README.md.
//
// Usage:
//   AGENT_DEVICE_DIR=<install>/node_modules/agent-device node oracle.mjs                > fixture.jsonl
//   AGENT_DEVICE_DIR=<install>/node_modules/agent-device node oracle.mjs --bench-inputs > two-contact.jsonl
//
// A summary goes to stderr. Output is deterministic: the inputs come from
// hand-written tables and a seeded PRNG, never from Math.random or the clock.
//
// Some agent-device functions are not exported. For those the oracle writes
// temporary copies next to the originals (dist/src/__flow_oracle_<pid>_*.js)
// with an extra export statement, imports them, and deletes them on exit.
// interaction2.js cannot be imported at all (its import graph starts the
// agent-device daemon), so only its swipe-validation functions are cut out of
// the file text into a small temporary module. Nothing from agent-device is
// part of this repository.

import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const AD_VERSION = '0.21.5';
const AD_DIR = process.env.AGENT_DEVICE_DIR;
if (!AD_DIR) fail('AGENT_DEVICE_DIR must point at an installed agent-device package (…/node_modules/agent-device)');
const SRC = path.join(AD_DIR, 'dist', 'src');
const pkg = JSON.parse(fs.readFileSync(path.join(AD_DIR, 'package.json'), 'utf8'));
if (pkg.name !== 'agent-device' || pkg.version !== AD_VERSION) {
  fail(`expected agent-device@${AD_VERSION} at ${AD_DIR}, found ${pkg.name}@${pkg.version}`);
}

function fail(msg) {
  process.stderr.write(`oracle: ${msg}\n`);
  process.exit(1);
}

// ---------------------------------------------------------------------------
// Loading agent-device
// ---------------------------------------------------------------------------

const tempFiles = [];
function cleanup() {
  for (const f of tempFiles.splice(0)) {
    try { fs.unlinkSync(f); } catch { /* already gone */ }
  }
}
process.on('exit', cleanup);
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => { cleanup(); process.exit(130); });

const importSrc = (file) => import(pathToFileURL(path.join(SRC, file)).href);

function writeTemp(base, text) {
  const file = path.join(SRC, `__flow_oracle_${process.pid}_${base}`);
  fs.writeFileSync(file, text);
  tempFiles.push(file);
  return file;
}

// A copy of dist/src/<file> with `export{<exports>}` appended.
async function importWithExtraExports(file, exports) {
  const text = fs.readFileSync(path.join(SRC, file), 'utf8');
  const tmp = writeTemp(file, `${text}\nexport{${exports}};\n`);
  return import(pathToFileURL(tmp).href);
}

// Cut the swipe validation (hn, gn, _n) and the ping-pong swap (bn) out of
// interaction2.js into a module that imports only what those functions use.
async function importSwipeValidation() {
  const text = fs.readFileSync(path.join(SRC, 'interaction2.js'), 'utf8');
  const slice = (from, to) => {
    const a = text.indexOf(from);
    const b = text.indexOf(to, a);
    if (a < 0 || b < 0 || text.indexOf(from, a + 1) >= 0) fail(`interaction2.js: cannot locate ${from}…${to}`);
    return text.slice(a, b);
  };
  const code = `${slice('function hn(', 'function vn(')}\n${slice('function bn(', 'function xn(')}\n`;
  // local name -> {exported, spec} from the file's import statements
  const imports = new Map();
  for (const m of text.matchAll(/import\{([^}]*)\}from"(\.\/[^"]+)"/g)) {
    for (const part of m[1].split(',')) {
      const [exported, local] = part.includes(' as ') ? part.split(' as ') : [part, part];
      imports.set(local.trim(), { exported: exported.trim(), spec: m[2] });
    }
  }
  const needed = ['e', 'o', 'p', 'ee', 're']; // AppError, integer reader, 60000, 10000, swipe durationMs guard
  const header = needed.map((local) => {
    const imp = imports.get(local);
    if (!imp) fail(`interaction2.js: no import binding ${local}`);
    return `import{${imp.exported} as ${local}}from"${imp.spec}";`;
  }).join('\n');
  const tmp = writeTemp('swipe-validation.js', `${header}\n${code}export{hn as validateSwipe,gn as validateSeries,bn as pingPong};\n`);
  return import(pathToFileURL(tmp).href);
}

const gesturePlan = await importSrc('gesture-plan.js');
const contracts = await importSrc('sdk-contracts.js');
const script = await importWithExtraExports('script.js', 'ce as __ce');
const mechanics = await importWithExtraExports('mechanics.js', 'ea as __lowerAndroidTouchPlan');
const webdriver = await importWithExtraExports('provider-webdriver.js', 'Ue as __WebDriverProvider,Se as __WebDriverClient');
const swipeMod = await importSwipeValidation();

const AppError = contracts.C;
const planGesture = gesturePlan.n; //          planGesture(intent, viewport, platform)
const planTargetAuthoredDrag = gesturePlan.t; // planTargetAuthoredDrag({from,to,...}, viewport)
const normalizeInput = script.E; //             public structured input -> normalized
const toPlannerIntent = script.S; //            normalized -> planner intent (drag stays {intent:'drag'})
const positionalGesture = script.b; //          k(positionals, pointerCount)
const positionalSwipe = script.w; //            se(positionals, {count,pauseMs,pattern})
const swipeFlingIntent = script.C; //           ue({from,to}) -> {gesture:{intent:'fling',from,to}}
const gestureOfNormalized = script.__ce; //     ce(normalized) -> {gesture} (throws for drag)
const lowerAndroid = mechanics.__lowerAndroidTouchPlan;
const WebDriverProvider = webdriver.__WebDriverProvider;
const WebDriverClient = webdriver.__WebDriverClient;
const { validateSwipe, pingPong } = swipeMod;

for (const [name, fn] of Object.entries({
  AppError, planGesture, planTargetAuthoredDrag, normalizeInput, toPlannerIntent, positionalGesture,
  positionalSwipe, swipeFlingIntent, gestureOfNormalized, lowerAndroid, validateSwipe, pingPong,
})) {
  if (typeof fn !== 'function') fail(`agent-device binding ${name} is not a function`);
}
if (typeof WebDriverProvider?.prototype?.performGesture !== 'function') fail('WebDriver provider has no performGesture');
if (typeof WebDriverClient?.prototype?.performActions !== 'function') fail('WebDriver client has no performActions');

// The W3C actions body exactly as performGesture POSTs it: run the real
// provider method with a client whose only transport is a recorder.
async function webdriverActionsBody(plan) {
  let posted;
  const transport = {
    async sessionRequest(method, urlPath, body) {
      if (method === 'POST' && urlPath === '/actions') posted = body;
    },
  };
  const client = {
    performActions: (actions) => WebDriverClient.prototype.performActions.call(transport, actions),
    releaseActions: async () => {},
  };
  const provider = { requireSupport() {}, client };
  await WebDriverProvider.prototype.performGesture.call(provider, plan);
  if (posted === undefined) throw new Error('performGesture did not POST /actions');
  return posted;
}

// ---------------------------------------------------------------------------
// Running one case
// ---------------------------------------------------------------------------

function errorJSON(e) {
  if (e instanceof AppError) {
    return { code: e.code, message: e.message, ...(e.details === undefined ? {} : { details: e.details }) };
  }
  return { code: 'JS_EXCEPTION', message: e instanceof Error ? `${e.name}: ${e.message}` : String(e) };
}

function mustPlan(p) {
  if (!p || typeof p !== 'object') throw new Error('oracle: planner returned no plan (case is outside the planner contract)');
  return p;
}

async function run(c) {
  try {
    if ('input' in c) {
      const normalized = normalizeInput(c.input);
      const intent = toPlannerIntent(normalized);
      if (normalized.kind === 'drag') {
        try {
          gestureOfNormalized(normalized);
        } catch (e) {
          return { error: errorJSON(e), normalized };
        }
        throw new Error('oracle: drag normalization did not stop at coordinate normalization');
      }
      return { plan: mustPlan(planGesture(intent, c.viewport, c.platform)) };
    }
    if ('intent' in c) {
      return { plan: mustPlan(planGesture(c.intent, c.viewport, c.platform)) };
    }
    if ('drag' in c) {
      return { plan: mustPlan(planTargetAuthoredDrag(c.drag, c.viewport)) };
    }
    if ('argv' in c) {
      const [command, ...positionals] = c.argv;
      if (command === 'gesture') {
        const normalized = positionalGesture(positionals, c.pointerCount);
        const intent = toPlannerIntent(normalized);
        if (normalized.kind === 'drag') {
          try {
            gestureOfNormalized(normalized);
          } catch (e) {
            return { error: errorJSON(e), normalized };
          }
          throw new Error('oracle: drag normalization did not stop at coordinate normalization');
        }
        return { plan: mustPlan(planGesture(intent, c.viewport, c.platform)) };
      }
      if (command === 'swipe') {
        const input = positionalSwipe(positionals, c.swipe ?? {});
        const series = validateSwipe(input);
        // daemon defaults (interaction2.js ln)
        const count = series.count ?? 1;
        const pauseMs = series.pauseMs ?? 0;
        const pattern = series.pattern ?? 'one-way';
        const plans = [];
        for (let i = 0; i < count; i += 1) {
          const { gesture } = swipeFlingIntent(pingPong(series, pattern, i));
          plans.push(mustPlan(planGesture(gesture, c.viewport, c.platform)));
        }
        return { plans, count, pauseMs, pattern };
      }
      throw new Error(`oracle: unsupported argv command ${command}`);
    }
    if ('lower' in c) {
      if (c.lower === 'android') return { lowered: lowerAndroid(c.plan) };
      if (c.lower === 'webdriver') return { lowered: await webdriverActionsBody(c.plan) };
      throw new Error(`oracle: unsupported lowering ${c.lower}`);
    }
    throw new Error('oracle: case has no known shape');
  } catch (e) {
    if (e instanceof Error && e.message.startsWith('oracle:')) throw e;
    return { error: errorJSON(e) };
  }
}

// ---------------------------------------------------------------------------
// Deterministic PRNG (mulberry32)
// ---------------------------------------------------------------------------

function prng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const r = {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    float: (lo, hi, decimals = 2) => round(lo + next() * (hi - lo), decimals),
    pick: (arr) => arr[Math.floor(next() * arr.length)],
    chance: (p) => next() < p,
    weighted: (pairs) => {
      const total = pairs.reduce((s, [, w]) => s + w, 0);
      let x = next() * total;
      for (const [v, w] of pairs) {
        if ((x -= w) < 0) return v;
      }
      return pairs[pairs.length - 1][0];
    },
  };
  return r;
}
function round(v, decimals) {
  const f = 10 ** decimals;
  return Math.round(v * f) / f;
}

// ---------------------------------------------------------------------------
// Case tables
// ---------------------------------------------------------------------------

const VP = {
  pixel: { x: 0, y: 0, width: 1080, height: 2400 },
  pixel2340: { x: 0, y: 0, width: 1080, height: 2340 },
  androidInset: { x: 0, y: 63, width: 1080, height: 2274 },
  androidLand: { x: 0, y: 0, width: 2400, height: 1080 },
  androidSmall: { x: 0, y: 0, width: 720, height: 1280 },
  iphone: { x: 0, y: 0, width: 390, height: 844 },
  iphoneSafe: { x: 0, y: 47, width: 390, height: 797 },
  iphoneSE: { x: 0, y: 0, width: 375, height: 667 },
  ipad: { x: 0, y: 0, width: 820, height: 1180 },
  web: { x: 0, y: 0, width: 1280, height: 720 },
  frac: { x: 0.5, y: 20.25, width: 393.5, height: 851.75 },
  fracOdd: { x: 12.3, y: 45.6, width: 360.4, height: 640.2 },
  offset: { x: 100, y: 200, width: 390, height: 844 },
  negative: { x: -100, y: -50, width: 390, height: 844 },
  tiny100: { x: 0, y: 0, width: 100, height: 100 },
  tiny120: { x: 0, y: 0, width: 120, height: 120 },
  tiny192: { x: 0, y: 0, width: 192, height: 192 },
  tiny50: { x: 0, y: 0, width: 50, height: 50 },
  tiny3: { x: 0, y: 0, width: 3, height: 3 },
  tiny2: { x: 0, y: 0, width: 2, height: 2 },
  tinyFrac: { x: 5.5, y: 5.5, width: 2.5, height: 2.5 },
};
const PHONE_VPS = ['pixel', 'pixel2340', 'androidInset', 'androidLand', 'androidSmall', 'iphone', 'iphoneSafe', 'iphoneSE', 'ipad', 'web', 'frac', 'fracOdd', 'offset', 'negative'];
const PLATFORMS = ['android', 'ios', 'web', undefined];
const platName = (p) => p ?? 'noplatform';
const defaultVpFor = (p) => (p === 'android' ? 'pixel' : p === 'web' ? 'web' : 'iphone');

const cases = [];
const names = new Set();
function add(name, c) {
  if (names.has(name)) fail(`duplicate case name ${name}`);
  names.add(name);
  // The oracle runs exactly what is recorded: round-trip through JSON (drops
  // undefined keys, turns -0 into 0).
  cases.push({ name, case: JSON.parse(JSON.stringify(c)) });
}
const withPlatform = (c, platform) => (platform === undefined ? c : { ...c, platform });

// Centre of a viewport and a point at fractions of it.
const center = (v) => ({ x: v.x + v.width / 2, y: v.y + v.height / 2 });
const at = (v, fx, fy) => ({ x: round(v.x + v.width * fx, 2), y: round(v.y + v.height * fy, 2) });

// ---- 1. Public structured input: normalization errors ----------------------

function normalizationCases() {
  const vp = VP.iphone;
  const o = { x: 200, y: 420 };
  const d = { x: 0, y: -80 };
  const bad = (name, input, platform = 'ios') => add(`input/normalize/${name}`, withPlatform({ input, viewport: vp }, platform));

  // not an object
  bad('input-null', null);
  bad('input-number', 42);
  bad('input-string', 'pan');
  bad('input-array', [{ kind: 'pan', origin: o, delta: d }]);
  bad('input-empty-array', []);
  bad('input-bool', true);
  // kind
  bad('kind-missing', { origin: o, delta: d });
  bad('kind-unknown-tap', { kind: 'tap', origin: o });
  bad('kind-uppercase', { kind: 'PAN', origin: o, delta: d });
  bad('kind-null', { kind: null });
  bad('kind-number', { kind: 1 });
  bad('kind-array', { kind: ['pan'] });
  bad('kind-empty', { kind: '' });

  // pan
  const pan = (extra) => ({ kind: 'pan', origin: o, delta: d, ...extra });
  bad('pan/origin-missing', { kind: 'pan', delta: d });
  bad('pan/delta-missing', { kind: 'pan', origin: o });
  bad('pan/origin-null', pan({ origin: null }));
  bad('pan/origin-array', pan({ origin: [200, 420] }));
  bad('pan/origin-string', pan({ origin: '200,420' }));
  bad('pan/origin-x-string', pan({ origin: { x: '200', y: 420 } }));
  bad('pan/origin-y-string', pan({ origin: { x: 200, y: '420' } }));
  bad('pan/origin-x-missing', pan({ origin: { y: 420 } }));
  bad('pan/origin-y-missing', pan({ origin: { x: 200 } }));
  bad('pan/origin-x-null', pan({ origin: { x: null, y: 420 } }));
  bad('pan/origin-x-bool', pan({ origin: { x: true, y: 420 } }));
  bad('pan/origin-x-array', pan({ origin: { x: [200], y: 420 } }));
  bad('pan/origin-x-object', pan({ origin: { x: { v: 200 }, y: 420 } }));
  bad('pan/delta-x-string', pan({ delta: { x: '0', y: -80 } }));
  bad('pan/delta-y-null', pan({ delta: { x: 0, y: null } }));
  bad('pan/delta-array', pan({ delta: [0, -80] }));
  bad('pan/origin-extra-fields-ignored', pan({ origin: { x: 200, y: 420, z: 9 } }));
  bad('pan/unknown-field-ignored', pan({ velocity: 3, foo: 'bar' }));
  for (const pc of [0, 3, -1, 1.5, '2', null, true, 2.0000001]) bad(`pan/pointerCount=${JSON.stringify(pc)}`, pan({ pointerCount: pc }));
  bad('pan/pointerCount=1', pan({ pointerCount: 1 }));
  bad('pan/pointerCount=2', pan({ pointerCount: 2 }));
  for (const dur of [15, 16, 10000, 10001, 15.5, 500.5, '500', null, 0, -1, -16, 1e308, true]) {
    bad(`pan/durationMs=${JSON.stringify(dur)}`, pan({ durationMs: dur }));
  }
  bad('pan/durationMs-and-pointerCount-bad', pan({ durationMs: 15, pointerCount: 3 }));

  // fling
  const fling = (extra) => ({ kind: 'fling', direction: 'up', origin: o, ...extra });
  bad('fling/durationMs', fling({ durationMs: 500 }));
  bad('fling/durationMs-null', fling({ durationMs: null }));
  bad('fling/pointerCount', fling({ pointerCount: 1 }));
  bad('fling/pointerCount-null', fling({ pointerCount: null }));
  for (const dir of ['UP', 'north', 'top', null, 1, '']) bad(`fling/direction=${JSON.stringify(dir)}`, fling({ direction: dir }));
  bad('fling/direction-missing', { kind: 'fling', origin: o });
  bad('fling/origin-missing', { kind: 'fling', direction: 'up' });
  bad('fling/origin-null', fling({ origin: null }));
  for (const dist of [-1, 1.5, 0, '180', null, 1, 180, 1e308, -0.5, true]) bad(`fling/distance=${JSON.stringify(dist)}`, fling({ distance: dist }));
  bad('fling/velocity-ignored', fling({ velocity: 2 }));

  // gesture swipe (preset)
  const swipe = (extra) => ({ kind: 'swipe', preset: 'left', ...extra });
  for (const p of ['up', 'down', 'LEFT', 'left_edge', 'leftedge', null, 3, '']) bad(`swipe/preset=${JSON.stringify(p)}`, swipe({ preset: p }));
  bad('swipe/preset-missing', { kind: 'swipe' });
  bad('swipe/durationMs', swipe({ durationMs: 300 }));
  bad('swipe/durationMs-null', swipe({ durationMs: null }));
  bad('swipe/pointerCount', swipe({ pointerCount: 2 }));
  bad('swipe/origin-ignored', swipe({ origin: { x: 1, y: 1 } }));

  // pinch
  const pinch = (extra) => ({ kind: 'pinch', scale: 0.5, ...extra });
  for (const s of ['0.5', null, true, [0.5], 0, -1, -0.5]) bad(`pinch/scale=${JSON.stringify(s)}`, pinch({ scale: s }));
  bad('pinch/scale-missing', { kind: 'pinch' });
  bad('pinch/origin-null', pinch({ origin: null }));
  bad('pinch/origin-x-only', pinch({ origin: { x: 200 } }));
  bad('pinch/origin-y-only', pinch({ origin: { y: 420 } }));
  bad('pinch/origin-array', pinch({ origin: [1, 2] }));
  bad('pinch/pointerCount', pinch({ pointerCount: 2 }));
  bad('pinch/durationMs-ignored', pinch({ durationMs: 500 }));
  bad('pinch/durationMs-bad-ignored', pinch({ durationMs: 'x' }));

  // rotate
  const rotate = (extra) => ({ kind: 'rotate', degrees: 35, ...extra });
  bad('rotate/velocity', rotate({ velocity: 2 }));
  bad('rotate/velocity-null', rotate({ velocity: null }));
  bad('rotate/velocity-zero', rotate({ velocity: 0 }));
  for (const deg of ['35', null, false]) bad(`rotate/degrees=${JSON.stringify(deg)}`, rotate({ degrees: deg }));
  bad('rotate/degrees-missing', { kind: 'rotate' });
  bad('rotate/origin-x-only', rotate({ origin: { x: 200 } }));
  bad('rotate/pointerCount', rotate({ pointerCount: 1 }));
  bad('rotate/durationMs-ignored', rotate({ durationMs: 16 }));

  // transform
  const tf = (extra) => ({ kind: 'transform', origin: o, delta: { x: 80, y: -40 }, scale: 2, degrees: 35, ...extra });
  bad('transform/origin-missing', { kind: 'transform', delta: d, scale: 2, degrees: 35 });
  bad('transform/delta-missing', { kind: 'transform', origin: o, scale: 2, degrees: 35 });
  bad('transform/scale-missing', { kind: 'transform', origin: o, delta: d, degrees: 35 });
  bad('transform/degrees-missing', { kind: 'transform', origin: o, delta: d, scale: 2 });
  bad('transform/scale-string', tf({ scale: '2' }));
  bad('transform/degrees-null', tf({ degrees: null }));
  bad('transform/scale-zero', tf({ scale: 0 }));
  bad('transform/scale-negative', tf({ scale: -2 }));
  bad('transform/pointerCount', tf({ pointerCount: 2 }));
  for (const dur of [15, 16, 10001, 16.5, null, '300']) bad(`transform/durationMs=${JSON.stringify(dur)}`, tf({ durationMs: dur }));
  bad('transform/velocity-ignored', tf({ velocity: 2 }));

  // drag (normalization only; planning needs resolved targets)
  const drag = (extra) => ({ kind: 'drag', source: 'id="card-a"', destination: 'label="Done"', ...extra });
  bad('drag/ok-defaults', drag({}));
  bad('drag/ok-all-durations', drag({ sourceHoldMs: 40, moveMs: 64, destinationHoldMs: 32 }));
  bad('drag/ok-trimmed', drag({ source: '  @e1  ', destination: '\tid=b\n' }));
  bad('drag/ok-pointerCount-ignored', drag({ pointerCount: 2 }));
  bad('drag/ok-durationMs-ignored', drag({ durationMs: 5 }));
  bad('drag/source-empty', drag({ source: '' }));
  bad('drag/source-blank', drag({ source: '   ' }));
  bad('drag/source-missing', { kind: 'drag', destination: 'id=b' });
  bad('drag/source-number', drag({ source: 5 }));
  bad('drag/source-null', drag({ source: null }));
  bad('drag/destination-empty', drag({ destination: '' }));
  bad('drag/destination-missing', { kind: 'drag', source: 'id=a' });
  bad('drag/source-empty-and-hold-bad', drag({ source: '', sourceHoldMs: 0 }));
  for (const [k, vals] of Object.entries({
    sourceHoldMs: [0, 1, 10000, 10001, 1.5, null, '800', -1],
    moveMs: [15, 16, 10000, 10001, 16.5, null, 0],
    destinationHoldMs: [-1, 0, 10000, 10001, 0.5, null],
  })) {
    for (const v of vals) bad(`drag/${k}=${JSON.stringify(v)}`, drag({ [k]: v }));
  }
  bad('drag/total-10000', drag({ sourceHoldMs: 800, moveMs: 500, destinationHoldMs: 8700 }));
  bad('drag/total-10001', drag({ sourceHoldMs: 800, moveMs: 500, destinationHoldMs: 8701 }));
  bad('drag/total-default-move-10000', drag({ sourceHoldMs: 9500 }));
  bad('drag/total-default-move-10001', drag({ sourceHoldMs: 9501 }));
  bad('drag/total-default-hold-10001', drag({ moveMs: 9201 }));
  bad('drag/total-default-hold-10000', drag({ moveMs: 9200 }));
  bad('drag/total-max-parts', drag({ sourceHoldMs: 10000, moveMs: 10000, destinationHoldMs: 10000 }));
}

// ---- 2. Public structured input: valid gestures on every platform ----------

function publicCases() {
  for (const platform of PLATFORMS) {
    const p = platName(platform);
    const vpName = defaultVpFor(platform);
    const vp = VP[vpName];
    const c = center(vp);
    const inp = (name, input, v = vp) => add(`input/${p}/${name}`, withPlatform({ input, viewport: v }, platform));
    // pan, 1 pointer
    inp('pan/basic', { kind: 'pan', origin: at(vp, 0.5, 0.5), delta: { x: 0, y: -80 } });
    inp('pan/duration-16', { kind: 'pan', origin: at(vp, 0.5, 0.5), delta: { x: 40, y: 0 }, durationMs: 16 });
    inp('pan/duration-10000', { kind: 'pan', origin: at(vp, 0.5, 0.5), delta: { x: 40, y: 0 }, durationMs: 10000 });
    inp('pan/pointerCount-1', { kind: 'pan', origin: at(vp, 0.3, 0.6), delta: { x: 12.5, y: -7.25 }, pointerCount: 1 });
    inp('pan/zero-delta', { kind: 'pan', origin: at(vp, 0.5, 0.5), delta: { x: 0, y: 0 } });
    inp('pan/fractional', { kind: 'pan', origin: { x: 100.123, y: 200.456 }, delta: { x: 0.1, y: -0.2 }, durationMs: 333 });
    // pan, 2 pointers
    inp('pan2/basic', { kind: 'pan', origin: at(vp, 0.5, 0.5), delta: { x: 80, y: -80 }, pointerCount: 2 });
    inp('pan2/duration-16', { kind: 'pan', origin: at(vp, 0.5, 0.5), delta: { x: 20, y: 20 }, pointerCount: 2, durationMs: 16 });
    inp('pan2/duration-17', { kind: 'pan', origin: at(vp, 0.5, 0.5), delta: { x: 20, y: 20 }, pointerCount: 2, durationMs: 17 });
    inp('pan2/duration-40', { kind: 'pan', origin: at(vp, 0.5, 0.5), delta: { x: 20, y: 20 }, pointerCount: 2, durationMs: 40 });
    inp('pan2/duration-56', { kind: 'pan', origin: at(vp, 0.5, 0.5), delta: { x: 20, y: 20 }, pointerCount: 2, durationMs: 56 });
    inp('pan2/duration-100', { kind: 'pan', origin: at(vp, 0.5, 0.5), delta: { x: 80, y: -40 }, pointerCount: 2, durationMs: 100 });
    inp('pan2/duration-1000', { kind: 'pan', origin: at(vp, 0.5, 0.5), delta: { x: -60, y: 90 }, pointerCount: 2, durationMs: 1000 });
    // fling with direction
    for (const dir of ['up', 'down', 'left', 'right']) {
      inp(`fling/${dir}`, { kind: 'fling', direction: dir, origin: at(vp, 0.5, 0.5) });
      inp(`fling/${dir}-distance-40`, { kind: 'fling', direction: dir, origin: at(vp, 0.5, 0.5), distance: 40 });
    }
    inp('fling/distance-1', { kind: 'fling', direction: 'right', origin: at(vp, 0.5, 0.5), distance: 1 });
    inp('fling/distance-0', { kind: 'fling', direction: 'right', origin: at(vp, 0.5, 0.5), distance: 0 });
    inp('fling/distance-huge', { kind: 'fling', direction: 'down', origin: at(vp, 0.5, 0.5), distance: 1e308 });
    inp('fling/up-oob', { kind: 'fling', direction: 'up', origin: { x: c.x, y: vp.y + 100 } });
    // presets
    for (const preset of ['left', 'right', 'left-edge', 'right-edge']) inp(`swipe/${preset}`, { kind: 'swipe', preset });
    // pinch
    for (const scale of [0.5, 0.25, 0.1, 1, 1.25, 2, 4, 10]) inp(`pinch/scale-${scale}`, { kind: 'pinch', scale });
    inp('pinch/origin', { kind: 'pinch', scale: 0.5, origin: at(vp, 0.4, 0.6) });
    inp('pinch/origin-near-edge-oob', { kind: 'pinch', scale: 2, origin: at(vp, 0.05, 0.5) });
    // rotate
    for (const deg of [0, 35, -35, 90, -90, 180, 359.5]) inp(`rotate/deg-${deg}`, { kind: 'rotate', degrees: deg });
    // long rotations (2400 ms, 150+ samples per contact) only where the profile differs
    if (platform === 'android' || platform === 'ios') for (const deg of [720, -1080]) inp(`rotate/deg-${deg}`, { kind: 'rotate', degrees: deg });
    if (platform === 'ios') inp('rotate/deg-100000', { kind: 'rotate', degrees: 100000 });
    inp('rotate/origin', { kind: 'rotate', degrees: 45, origin: at(vp, 0.4, 0.6) });
    // transform
    inp('transform/basic', { kind: 'transform', origin: at(vp, 0.5, 0.5), delta: { x: 80, y: -40 }, scale: 2, degrees: 35 });
    inp('transform/duration-16', { kind: 'transform', origin: at(vp, 0.5, 0.5), delta: { x: 8, y: -4 }, scale: 1.5, degrees: -20, durationMs: 16 });
    inp('transform/duration-10000-shrink', { kind: 'transform', origin: at(vp, 0.5, 0.5), delta: { x: 0, y: 0 }, scale: 0.5, degrees: 0, durationMs: 2000 });
    inp('transform/identity', { kind: 'transform', origin: at(vp, 0.5, 0.5), delta: { x: 0, y: 0 }, scale: 1, degrees: 0 });
    inp('transform/big-rotation-default-duration', { kind: 'transform', origin: at(vp, 0.5, 0.5), delta: { x: 10, y: 10 }, scale: 1.2, degrees: -400 });
    // drag through public input: normalized, then refused before planning
    inp('drag/refused-unresolved', { kind: 'drag', source: '@e1', destination: '@e2', moveMs: 300 });
  }
  // other profile platforms
  for (const platform of ['macos', 'harmonyos', 'vega', 'linux']) {
    const vp = VP.iphone;
    add(`input/${platform}/pinch`, { input: { kind: 'pinch', scale: 0.5 }, viewport: vp, platform });
    add(`input/${platform}/rotate`, { input: { kind: 'rotate', degrees: 90 }, viewport: vp, platform });
    add(`input/${platform}/pan`, { input: { kind: 'pan', origin: { x: 200, y: 420 }, delta: { x: 0, y: -80 } }, viewport: vp, platform });
  }
  // unknown platform: single-contact works; two-contact crashes inside agent-device
  add('input/unknown-platform-tvos/pan-single', { input: { kind: 'pan', origin: { x: 200, y: 420 }, delta: { x: 0, y: -80 } }, viewport: VP.iphone, platform: 'tvos' });
  add('input/unknown-platform-tvos/fling', { input: { kind: 'fling', direction: 'up', origin: { x: 200, y: 420 } }, viewport: VP.iphone, platform: 'tvos' });
  add('input/unknown-platform-tvos/pinch-js-typeerror', { input: { kind: 'pinch', scale: 0.5 }, viewport: VP.iphone, platform: 'tvos' });
}

// ---- 3. Viewports: shapes, origins, fractional, tiny, invalid --------------

function viewportCases() {
  for (const vpName of Object.keys(VP)) {
    const vp = VP[vpName];
    for (const platform of ['android', 'ios']) {
      const base = `viewport/${vpName}/${platform}`;
      add(`${base}/pinch-0.5`, { input: { kind: 'pinch', scale: 0.5 }, viewport: vp, platform });
      add(`${base}/rotate-90`, { input: { kind: 'rotate', degrees: 90 }, viewport: vp, platform });
      add(`${base}/preset-left-edge`, { intent: { intent: 'fling', preset: 'left-edge' }, viewport: vp, platform });
      add(`${base}/preset-right`, { intent: { intent: 'fling', preset: 'right' }, viewport: vp, platform });
      add(`${base}/pan-centre`, { input: { kind: 'pan', origin: center(vp), delta: { x: 0, y: 0 } }, viewport: vp, platform });
      add(`${base}/pan2-centre`, { input: { kind: 'pan', origin: center(vp), delta: { x: 0, y: 0 }, pointerCount: 2 }, viewport: vp, platform });
    }
  }
  const bad = {
    'width-0': { x: 0, y: 0, width: 0, height: 844 },
    'height-0': { x: 0, y: 0, width: 390, height: 0 },
    'width-negative': { x: 0, y: 0, width: -390, height: 844 },
    'height-negative': { x: 0, y: 0, width: 390, height: -1 },
    'x-missing': { y: 0, width: 390, height: 844 },
    'y-null': { x: 0, y: null, width: 390, height: 844 },
    'width-string': { x: 0, y: 0, width: '390', height: 844 },
    'height-missing': { x: 0, y: 0, width: 390 },
    'all-missing': {},
    'width-tiny-positive': { x: 0, y: 0, width: 1e-9, height: 844 },
    'huge': { x: 0, y: 0, width: 1e308, height: 1e308 },
    'extra-fields': { x: 0, y: 0, width: 390, height: 844, scale: 3, keyboard: { x: 0 } },
  };
  for (const [n, vp] of Object.entries(bad)) {
    add(`viewport/invalid/${n}/pan`, { input: { kind: 'pan', origin: { x: 200, y: 420 }, delta: { x: 0, y: -80 } }, viewport: vp, platform: 'ios' });
    add(`viewport/invalid/${n}/pinch`, { intent: { intent: 'pinch', scale: 0.5 }, viewport: vp, platform: 'android' });
  }
}

// ---- 4. Bounds: the 1 px inset, spans, non-finite --------------------------

function boundsCases() {
  // One-contact: start and end probes on each edge.
  for (const vpName of ['iphone', 'offset', 'frac', 'fracOdd', 'negative']) {
    const vp = VP[vpName];
    const c = center(vp);
    const lo = (a) => [[`${a}=v+0.99`, vp[a] + 0.99], [`${a}=v+1`, vp[a] + 1], [`${a}=v+1.01`, vp[a] + 1.01]];
    const hi = (a, size) => [[`${a}=v+${size}-1.01`, vp[a] + vp[size] - 1.01], [`${a}=v+${size}-1`, vp[a] + vp[size] - 1], [`${a}=v+${size}-0.99`, vp[a] + vp[size] - 0.99]];
    const probes = [
      ...lo('x').map(([n, v]) => [n, { x: v, y: c.y }]),
      ...hi('x', 'width').map(([n, v]) => [n, { x: v, y: c.y }]),
      ...lo('y').map(([n, v]) => [n, { x: c.x, y: v }]),
      ...hi('y', 'height').map(([n, v]) => [n, { x: c.x, y: v }]),
    ];
    for (const [n, pt] of probes) {
      for (const platform of ['android', 'ios']) {
        // point as the start of a pan that moves toward the centre
        add(`bounds/${vpName}/${platform}/pan-start/${n}`, { input: { kind: 'pan', origin: pt, delta: { x: round((c.x - pt.x) / 4, 3), y: round((c.y - pt.y) / 4, 3) } }, viewport: vp, platform });
        // point as the end of a from/to fling
        add(`bounds/${vpName}/${platform}/fling-end/${n}`, { intent: { intent: 'fling', from: c, to: pt }, viewport: vp, platform });
      }
      // point as the end of a pan (origin + delta arithmetic)
      add(`bounds/${vpName}/web/pan-end/${n}`, { input: { kind: 'pan', origin: c, delta: { x: pt.x - c.x, y: pt.y - c.y } }, viewport: vp, platform: 'web' });
    }
  }

  // Two-contact: place the extreme contact on the inset edge, then 0.01 off.
  // iOS/default profile starts at -90° (contacts above/below the centroid);
  // an Android pinch starts at 0° (contacts right/left).
  const edge2 = (name, platform, vp, intentOf) => {
    for (const [tag, eps] of [['in-0.01', 0.01], ['exact', 0], ['out-0.01', -0.01]]) {
      add(`bounds/two/${name}/${tag}`, { intent: intentOf(eps), viewport: vp, platform });
    }
  };
  {
    const vp = VP.iphone; // base span for pan = min(390,844)*0.25 = 97.5, r0 = 48.75
    edge2('ios-pan2-top', 'ios', vp, (eps) => ({ intent: 'pan', pointerCount: 2, origin: { x: 195, y: vp.y + 1 + 48.75 + eps }, delta: { x: 0, y: 0 }, durationMs: 100 }));
    edge2('ios-pan2-bottom', 'ios', vp, (eps) => ({ intent: 'pan', pointerCount: 2, origin: { x: 195, y: vp.y + vp.height - 1 - 48.75 - eps }, delta: { x: 0, y: 0 }, durationMs: 100 }));
    edge2('ios-pan2-moving-up', 'ios', vp, (eps) => ({ intent: 'pan', pointerCount: 2, origin: { x: 195, y: 400 }, delta: { x: 0, y: -(400 - 48.75 - 1) + eps }, durationMs: 200 }));
    // pinch base span = 390*0.4 = 156; scale 2 => final radius 78 at the end
    edge2('ios-pinch-grow-top', 'ios', vp, (eps) => ({ intent: 'pinch', scale: 2, origin: { x: 195, y: 1 + 78 + eps } }));
    edge2('ios-pinch-shrink-top', 'ios', vp, (eps) => ({ intent: 'pinch', scale: 0.5, origin: { x: 195, y: 1 + 78 + eps } }));
    edge2('ios-rotate-90-left', 'ios', vp, (eps) => ({ intent: 'rotate', degrees: 90, origin: { x: 1 + 48.75 + eps, y: 422 } }));
  }
  {
    const vp = VP.pixel; // android pinch base = 432, r0 = 216 (scale<=1)
    edge2('android-pinch-right', 'android', vp, (eps) => ({ intent: 'pinch', scale: 0.5, origin: { x: vp.width - 1 - 216 - eps, y: 1200 } }));
    edge2('android-pinch-left', 'android', vp, (eps) => ({ intent: 'pinch', scale: 0.5, origin: { x: 1 + 216 + eps, y: 1200 } }));
    edge2('android-pinch-grow-right', 'android', vp, (eps) => ({ intent: 'pinch', scale: 3, origin: { x: vp.width - 1 - 216 - eps, y: 1200 } }));
    edge2('android-pan2-top', 'android', vp, (eps) => ({ intent: 'pan', pointerCount: 2, origin: { x: 540, y: 1 + 135 + eps }, delta: { x: 0, y: 0 } }));
    edge2('android-transform-top', 'android', vp, (eps) => ({ intent: 'transform', origin: { x: 540, y: 1200 }, delta: { x: 0, y: -(1200 - 1 - 135) + eps }, scale: 1, degrees: 0, durationMs: 64 }));
  }
  {
    const vp = VP.offset; // x:100 y:200 390x844
    edge2('offset-ios-pan2-top', 'ios', vp, (eps) => ({ intent: 'pan', pointerCount: 2, origin: { x: 295, y: 200 + 1 + 48.75 + eps }, delta: { x: 0, y: 0 }, durationMs: 50 }));
    edge2('offset-android-pinch-left', 'android', vp, (eps) => ({ intent: 'pinch', scale: 0.5, origin: { x: 100 + 1 + 78 + eps, y: 622 } }));
  }

  // Spans: pinch base = min*0.4, others min*0.25; the smaller span must be >= 48.
  for (const [vpName, platform] of [['tiny120', 'ios'], ['tiny120', 'android'], ['tiny192', 'ios'], ['tiny192', 'android'], ['iphone', 'ios'], ['pixel', 'android']]) {
    const vp = VP[vpName];
    for (const scale of [1, 0.99, 1.01, 0.5, 2, 0.2, 5, 9, 1e-9, 1e9, 1e308]) {
      add(`span/${vpName}/${platform}/pinch-scale-${scale}`, { intent: { intent: 'pinch', scale }, viewport: vp, platform });
    }
    for (const scale of [1, 0.99, 1.01, 0.5, 2]) {
      add(`span/${vpName}/${platform}/transform-scale-${scale}`, { intent: { intent: 'transform', origin: center(vp), delta: { x: 0, y: 0 }, scale, degrees: 0, durationMs: 32 }, viewport: vp, platform });
    }
    add(`span/${vpName}/${platform}/rotate-10`, { intent: { intent: 'rotate', degrees: 10 }, viewport: vp, platform });
    add(`span/${vpName}/${platform}/pan2`, { intent: { intent: 'pan', pointerCount: 2, origin: center(vp), delta: { x: 0, y: 0 }, durationMs: 32 }, viewport: vp, platform });
  }
  for (const vpName of ['tiny100', 'tiny50', 'tiny3', 'tiny2', 'tinyFrac']) {
    const vp = VP[vpName];
    add(`span/${vpName}/ios/pinch`, { intent: { intent: 'pinch', scale: 0.5 }, viewport: vp, platform: 'ios' });
    add(`span/${vpName}/ios/pan1-centre`, { input: { kind: 'pan', origin: center(vp), delta: { x: 0, y: 0 } }, viewport: vp, platform: 'ios' });
    add(`span/${vpName}/ios/preset-left`, { intent: { intent: 'fling', preset: 'left' }, viewport: vp, platform: 'ios' });
    add(`span/${vpName}/ios/preset-right-edge`, { intent: { intent: 'fling', preset: 'right-edge' }, viewport: vp, platform: 'ios' });
  }
  // a span exactly at 48 on a fractional viewport
  add('span/fractional-48/ios/pinch', { intent: { intent: 'pinch', scale: 1 }, viewport: { x: 0, y: 0, width: 120, height: 400.5 }, platform: 'ios' });
  add('span/fractional-47.9/ios/pinch', { intent: { intent: 'pinch', scale: 1 }, viewport: { x: 0, y: 0, width: 119.75, height: 400.5 }, platform: 'ios' });

  // Non-finite trajectories: overflow in origin + delta or in the rotation angle.
  for (const platform of ['android', 'ios']) {
    const vp = platform === 'android' ? VP.pixel : VP.iphone;
    add(`nonfinite/${platform}/pan2-origin+delta-overflow`, { input: { kind: 'pan', pointerCount: 2, origin: { x: 1e308, y: 400 }, delta: { x: 1e308, y: 0 } }, viewport: vp, platform });
    add(`nonfinite/${platform}/pan2-negative-overflow`, { input: { kind: 'pan', pointerCount: 2, origin: { x: 200, y: -1e308 }, delta: { x: 0, y: -1e308 } }, viewport: vp, platform });
    add(`nonfinite/${platform}/transform-overflow`, { input: { kind: 'transform', origin: { x: 1e308, y: 1e308 }, delta: { x: 1e308, y: 1e308 }, scale: 1, degrees: 0 }, viewport: vp, platform });
    add(`nonfinite/${platform}/rotate-1e308`, { input: { kind: 'rotate', degrees: 1e308 }, viewport: vp, platform });
    add(`nonfinite/${platform}/rotate-neg-1e308`, { input: { kind: 'rotate', degrees: -1e308 }, viewport: vp, platform });
    add(`nonfinite/${platform}/transform-degrees-1.7e308`, { input: { kind: 'transform', origin: center(vp), delta: { x: 0, y: 0 }, scale: 1, degrees: 1.7e308, durationMs: 64 }, viewport: vp, platform });
    // huge but finite: fine or out of bounds
    add(`huge/${platform}/rotate-${platform === 'ios' ? '1e306' : '1e15'}`, { input: { kind: 'rotate', degrees: platform === 'ios' ? 1e306 : 1e15 }, viewport: vp, platform });
    add(`huge/${platform}/transform-degrees-1e20`, { input: { kind: 'transform', origin: center(vp), delta: { x: 0, y: 0 }, scale: 1, degrees: 1e20, durationMs: 64 }, viewport: vp, platform });
    add(`huge/${platform}/pan2-delta-1.7e308`, { input: { kind: 'pan', pointerCount: 2, origin: center(vp), delta: { x: 1.7e308, y: 0 } }, viewport: vp, platform });
    add(`huge/${platform}/pan1-end-overflow`, { input: { kind: 'pan', origin: { x: 1e308, y: 400 }, delta: { x: 1e308, y: 0 } }, viewport: vp, platform });
    add(`huge/${platform}/pan1-delta-1e308`, { input: { kind: 'pan', origin: { x: 200, y: 400 }, delta: { x: 1e308, y: 0 } }, viewport: vp, platform });
    add(`huge/${platform}/fling-origin-1e308`, { input: { kind: 'fling', direction: 'right', origin: { x: 1.7e308, y: 400 }, distance: 1e308 }, viewport: vp, platform });
    add(`huge/${platform}/pinch-origin-1e308`, { input: { kind: 'pinch', scale: 0.5, origin: { x: 1e308, y: 400 } }, viewport: vp, platform });
  }
}

// ---- 5. Planner intents (internal seams and values public input can't make)

function intentCases() {
  for (const platform of PLATFORMS) {
    const p = platName(platform);
    const vp = VP[defaultVpFor(platform)];
    const c = center(vp);
    const it = (name, intent, v = vp) => add(`intent/${p}/${name}`, withPlatform({ intent, viewport: v }, platform));
    it('fling-from-to', { intent: 'fling', from: at(vp, 0.8, 0.5), to: at(vp, 0.2, 0.5) });
    it('fling-from-to-same-point', { intent: 'fling', from: c, to: c });
    it('fling-from-to-fractional', { intent: 'fling', from: { x: 100.25, y: 200.5 }, to: { x: 300.75, y: 400.125 } });
    it('fling-from-to-oob', { intent: 'fling', from: c, to: { x: c.x, y: vp.y + vp.height } });
    it('fling-from-string', { intent: 'fling', from: { x: '100', y: 200 }, to: c });
    it('fling-to-null-y', { intent: 'fling', from: c, to: { x: 100, y: null } });
    for (const preset of ['left', 'right', 'left-edge', 'right-edge']) it(`fling-preset-${preset}`, { intent: 'fling', preset });
    it('fling-preset-unknown-up', { intent: 'fling', preset: 'up' });
    it('fling-preset-unknown-bogus', { intent: 'fling', preset: 'bogus' });
    it('fling-direction-distance-null', { intent: 'fling', direction: 'left', origin: c, distance: null });
    it('fling-direction-distance-0', { intent: 'fling', direction: 'left', origin: c, distance: 0 });
    it('fling-direction-distance-negative', { intent: 'fling', direction: 'left', origin: c, distance: -50 });
    it('fling-direction-distance-fraction', { intent: 'fling', direction: 'up', origin: c, distance: 12.75 });
    it('fling-direction-distance-string', { intent: 'fling', direction: 'up', origin: c, distance: '50' });
    it('fling-origin-string', { intent: 'fling', direction: 'up', origin: { x: '1', y: 2 } });
    it('pan-endpoint-hold', { intent: 'pan', origin: c, delta: { x: 0, y: -200 }, durationMs: 400, executionProfile: 'endpoint-hold' });
    it('pan-endpoint-hold-default-duration', { intent: 'pan', origin: c, delta: { x: 150, y: 0 }, executionProfile: 'endpoint-hold' });
    it('pan-timed-pan-explicit', { intent: 'pan', origin: c, delta: { x: 150, y: 0 }, executionProfile: 'timed-pan' });
    it('pan-profile-null', { intent: 'pan', origin: c, delta: { x: 150, y: 0 }, executionProfile: null });
    it('pan2-endpoint-hold-ignored', { intent: 'pan', origin: c, delta: { x: 0, y: -50 }, pointerCount: 2, executionProfile: 'endpoint-hold' });
    for (const pc of [0, 3, 1.5, -2, '2']) it(`pan-pointerCount-${JSON.stringify(pc)}`, { intent: 'pan', origin: c, delta: { x: 0, y: -50 }, pointerCount: pc });
    it('pan-pointerCount-null', { intent: 'pan', origin: c, delta: { x: 0, y: -50 }, pointerCount: null });
    for (const dur of [15, 16, 10000, 10001, 15.5, 16.5, 0, -16, null, '500']) {
      it(`pan-durationMs-${JSON.stringify(dur)}`, { intent: 'pan', origin: c, delta: { x: 0, y: -50 }, durationMs: dur });
      // two-contact 10000 ms plans carry 1250+ samples: only once (iOS) to keep the fixture small
      if (platform !== 'android' && platform !== 'ios') continue;
      if (dur === 10000 && platform !== 'ios') continue;
      it(`pan2-durationMs-${JSON.stringify(dur)}`, { intent: 'pan', origin: c, delta: { x: 0, y: -50 }, pointerCount: 2, durationMs: dur });
      it(`transform-durationMs-${JSON.stringify(dur)}`, { intent: 'transform', origin: c, delta: { x: 0, y: -50 }, scale: 1.1, degrees: 10, durationMs: dur });
    }
    it('pan2-bad-duration-and-pointerCount', { intent: 'pan', origin: c, delta: { x: 0, y: 0 }, pointerCount: 3, durationMs: 15 });
    it('pan-origin-string', { intent: 'pan', origin: { x: '200', y: 400 }, delta: { x: 0, y: 0 } });
    it('pan-delta-null-y', { intent: 'pan', origin: c, delta: { x: 0, y: null } });
    it('pan2-origin-string', { intent: 'pan', pointerCount: 2, origin: { x: 200, y: '400' }, delta: { x: 0, y: 0 } });
    for (const s of [0, -1, null, '0.5', 1e-300]) it(`pinch-scale-${JSON.stringify(s)}`, { intent: 'pinch', scale: s });
    it('pinch-origin-null-is-centre', { intent: 'pinch', scale: 0.5, origin: null });
    it('pinch-origin-string', { intent: 'pinch', scale: 0.5, origin: { x: '1', y: 2 } });
    for (const deg of [null, '35']) it(`rotate-degrees-${JSON.stringify(deg)}`, { intent: 'rotate', degrees: deg });
    it('rotate-origin-null-is-centre', { intent: 'rotate', degrees: 30, origin: null });
    it('rotate-fractional-degrees', { intent: 'rotate', degrees: 0.001 });
    it('rotate-degrees-3-boundary', { intent: 'rotate', degrees: 57 }); // ceil(57/3)*16 = 304
    it('rotate-degrees-56', { intent: 'rotate', degrees: 56 }); // ceil(18.67)*16 = 304
    it('rotate-degrees-54', { intent: 'rotate', degrees: 54 }); // 18*16 = 288 -> 300
    if (platform === 'android' || platform === 'ios') {
      it('rotate-degrees-450', { intent: 'rotate', degrees: 450 }); // 2400
      it('rotate-degrees-447', { intent: 'rotate', degrees: 447 }); // 149*16 = 2384
    }
    for (const s of [0, -1, null]) it(`transform-scale-${JSON.stringify(s)}`, { intent: 'transform', origin: c, delta: { x: 0, y: 0 }, scale: s, degrees: 0 });
    it('transform-degrees-null', { intent: 'transform', origin: c, delta: { x: 0, y: 0 }, scale: 1, degrees: null });
    it('transform-delta-string', { intent: 'transform', origin: c, delta: { x: '1', y: 0 }, scale: 1, degrees: 0 });
  }
}

// ---- 6. Target-authored drag planner ----------------------------------------

function dragCases() {
  const vps = [['iphone', VP.iphone], ['pixel', VP.pixel], ['offset', VP.offset], ['fracOdd', VP.fracOdd]];
  for (const [vpName, vp] of vps) {
    const a = at(vp, 0.3, 0.3);
    const b = at(vp, 0.7, 0.8);
    const dg = (name, extra) => add(`drag/${vpName}/${name}`, { drag: { from: a, to: b, ...extra }, viewport: vp });
    dg('defaults', {});
    dg('holds-40-64-32', { sourceHoldMs: 40, moveMs: 64, destinationHoldMs: 32 });
    dg('hold-1-move-16', { sourceHoldMs: 1, moveMs: 16, destinationHoldMs: 0 });
    dg('dhold-1', { destinationHoldMs: 1 });
    dg('total-10000', { sourceHoldMs: 800, moveMs: 500, destinationHoldMs: 8700 });
    dg('total-10001', { sourceHoldMs: 800, moveMs: 500, destinationHoldMs: 8701 });
    dg('nulls-are-defaults', { sourceHoldMs: null, moveMs: null, destinationHoldMs: null });
  }
  const vp = VP.iphone;
  const a = { x: 100, y: 200 };
  const b = { x: 300, y: 600 };
  const dg = (name, drag, v = vp) => add(`drag/edge/${name}`, { drag, viewport: v });
  for (const v of [0, 1, 10000, 10001, 1.5, -1, '800']) dg(`sourceHoldMs=${JSON.stringify(v)}`, { from: a, to: b, sourceHoldMs: v, moveMs: 16, destinationHoldMs: 0 });
  for (const v of [15, 16, 10000, 10001, 16.5, 0]) dg(`moveMs=${JSON.stringify(v)}`, { from: a, to: b, sourceHoldMs: 1, moveMs: v, destinationHoldMs: 0 });
  for (const v of [-1, 0, 1, 10000, 10001, 0.5]) dg(`destinationHoldMs=${JSON.stringify(v)}`, { from: a, to: b, sourceHoldMs: 1, moveMs: 16, destinationHoldMs: v });
  dg('bad-hold-and-total', { from: a, to: b, sourceHoldMs: 0, moveMs: 10000, destinationHoldMs: 10000 });
  dg('same-point', { from: a, to: a });
  dg('fractional-points', { from: { x: 100.5, y: 200.25 }, to: { x: 300.125, y: 600.0625 } });
  dg('from-oob-x-0.99', { from: { x: 0.99, y: 200 }, to: b });
  dg('from-x-1', { from: { x: 1, y: 200 }, to: b });
  dg('to-x-width-1', { from: a, to: { x: 389, y: 600 } });
  dg('to-oob-x-width-0.99', { from: a, to: { x: 389.01, y: 600 } });
  dg('to-oob-y-height', { from: a, to: { x: 200, y: 844 } });
  dg('from-string', { from: { x: '100', y: 200 }, to: b });
  dg('to-null-x', { from: a, to: { x: null, y: 200 } });
  dg('from-huge', { from: { x: 1e308, y: 200 }, to: b });
  dg('viewport-invalid', { from: a, to: b }, { x: 0, y: 0, width: 0, height: 844 });
  dg('viewport-offset-oob', { from: { x: 50, y: 300 }, to: b }, VP.offset);
}

// ---- 7. CLI / .ad positional forms ------------------------------------------

function argvCases() {
  const g = (name, argv, platform = 'ios', extra = {}) => {
    const vp = VP[defaultVpFor(platform)];
    add(`argv/${name}`, withPlatform({ argv, ...extra, viewport: vp }, platform));
  };
  for (const platform of PLATFORMS) {
    const p = platName(platform);
    g(`${p}/pan`, ['gesture', 'pan', '200', '420', '0', '-80'], platform);
    g(`${p}/pan-500`, ['gesture', 'pan', '200', '420', '0', '-80', '500'], platform);
    g(`${p}/pan-pointer-count-2`, ['gesture', 'pan', '200', '420', '40', '-80', '300'], platform, { pointerCount: 2 });
    g(`${p}/fling`, ['gesture', 'fling', 'up', '200', '420'], platform);
    g(`${p}/fling-distance`, ['gesture', 'fling', 'left', '300', '420', '120'], platform);
    g(`${p}/swipe-preset`, ['gesture', 'swipe', 'left-edge'], platform);
    g(`${p}/pinch`, ['gesture', 'pinch', '0.5'], platform);
    g(`${p}/pinch-xy`, ['gesture', 'pinch', '1.25', '195', '443'], platform);
    g(`${p}/rotate`, ['gesture', 'rotate', '35'], platform);
    g(`${p}/rotate-xy`, ['gesture', 'rotate', '-35', '195', '443'], platform);
    g(`${p}/transform`, ['gesture', 'transform', '200', '420', '80', '-40', '2', '35'], platform);
    g(`${p}/transform-duration`, ['gesture', 'transform', '200', '420', '80', '-40', '0.8', '-35', '600'], platform);
    g(`${p}/drag`, ['gesture', 'drag', 'id="a"', 'label="B"'], platform);
  }
  // pan details
  for (const dur of ['15', '16', '10000', '10001', '500.5', 'abc', '${DUR}', '', '1e3', '0x10', ' 200 ', '-16', 'Infinity', '1_000']) {
    g(`pan/durationMs=${JSON.stringify(dur)}`, ['gesture', 'pan', '200', '420', '0', '-80', dur]);
  }
  g('pan/too-many', ['gesture', 'pan', '200', '420', '0', '-80', '500', '9']);
  g('pan/too-many-dur-token', ['gesture', 'pan', '200', '420', '0', '-80', '500', '${DUR}']);
  g('pan/missing-delta', ['gesture', 'pan', '200', '420']);
  g('pan/missing-dy', ['gesture', 'pan', '200', '420', '0']);
  g('pan/no-args', ['gesture', 'pan']);
  g('pan/origin-abc', ['gesture', 'pan', 'abc', '420', '0', '-80']);
  g('pan/origin-hex', ['gesture', 'pan', '0xC8', '420', '0', '-80']);
  g('pan/origin-exponent', ['gesture', 'pan', '2e2', '4.2e2', '0', '-8e1']);
  g('pan/origin-empty-string-is-zero', ['gesture', 'pan', '', '420', '0', '-80']);
  g('pan/origin-whitespace', ['gesture', 'pan', ' 200 ', '\t420', '0', '-80']);
  g('pan/origin-var-token', ['gesture', 'pan', '${X}', '420', '0', '-80']);
  for (const pc of [1, 2, 3, 0, 1.5]) g(`pan/pointerCount=${pc}`, ['gesture', 'pan', '200', '420', '0', '-80'], 'ios', { pointerCount: pc });
  g('pan/pointerCount-2-android', ['gesture', 'pan', '540', '1200', '100', '-100', '250'], 'android', { pointerCount: 2 });
  g('pan/oob-x-0.99', ['gesture', 'pan', '0.99', '420', '10', '0']);
  g('pan/x-1', ['gesture', 'pan', '1', '420', '10', '0']);
  g('pan/end-x-389', ['gesture', 'pan', '300', '420', '89', '0']);
  g('pan/end-x-389.01', ['gesture', 'pan', '300', '420', '89.01', '0']);
  // fling
  g('fling/removed-duration', ['gesture', 'fling', 'up', '200', '400', '180', '300']);
  g('fling/removed-duration-var', ['gesture', 'fling', 'up', '200', '400', '180', '${DUR}']);
  g('fling/removed-duration-negative', ['gesture', 'fling', 'up', '200', '400', '180', '-3']);
  g('fling/extra-non-numeric', ['gesture', 'fling', 'up', '200', '400', '180', 'fast']);
  g('fling/extra-blank', ['gesture', 'fling', 'up', '200', '400', '180', ' ']);
  g('fling/two-extra', ['gesture', 'fling', 'up', '200', '400', '180', '300', '1']);
  g('fling/bad-direction', ['gesture', 'fling', 'north', '200', '400']);
  g('fling/missing-y', ['gesture', 'fling', 'up', '200']);
  g('fling/missing-all', ['gesture', 'fling']);
  for (const dist of ['0', '-5', '1.5', 'abc', '${D}', '1e308', '180']) g(`fling/distance=${JSON.stringify(dist)}`, ['gesture', 'fling', 'down', '200', '400', dist]);
  g('fling/pointerCount-2-ignored', ['gesture', 'fling', 'up', '200', '400'], 'ios', { pointerCount: 2 });
  // gesture swipe
  for (const preset of ['left', 'right', 'left-edge', 'right-edge']) {
    for (const platform of ['android', 'ios']) g(`swipe-preset/${platform}/${preset}`, ['gesture', 'swipe', preset], platform);
  }
  g('swipe-preset/removed-duration', ['gesture', 'swipe', 'left', '300']);
  g('swipe-preset/removed-duration-var', ['gesture', 'swipe', 'left', '${DUR}']);
  g('swipe-preset/extra-non-numeric', ['gesture', 'swipe', 'left', 'slow']);
  g('swipe-preset/two-extra', ['gesture', 'swipe', 'left', '300', '2']);
  g('swipe-preset/bad', ['gesture', 'swipe', 'up']);
  g('swipe-preset/missing', ['gesture', 'swipe']);
  g('swipe-preset/pointerCount-ignored', ['gesture', 'swipe', 'right'], 'ios', { pointerCount: 2 });
  // pinch
  g('pinch/only-x', ['gesture', 'pinch', '2', '540']);
  g('pinch/abc', ['gesture', 'pinch', 'abc']);
  g('pinch/zero', ['gesture', 'pinch', '0']);
  g('pinch/negative', ['gesture', 'pinch', '-1']);
  g('pinch/missing-scale', ['gesture', 'pinch']);
  g('pinch/too-many', ['gesture', 'pinch', '0.5', '540', '1200', '3']);
  g('pinch/x-abc', ['gesture', 'pinch', '0.5', 'abc', '400']);
  g('pinch/android-540-1200', ['gesture', 'pinch', '0.5', '540', '1200'], 'android');
  g('pinch/pointerCount-ignored', ['gesture', 'pinch', '0.5'], 'android', { pointerCount: 2 });
  g('pinch/pointerCount-bad-ignored', ['gesture', 'pinch', '0.5'], 'android', { pointerCount: 7 });
  // rotate
  g('rotate/removed-velocity', ['gesture', 'rotate', '35', '200', '420', '2']);
  g('rotate/removed-velocity-var', ['gesture', 'rotate', '35', '200', '420', '${V}']);
  g('rotate/extra-non-numeric', ['gesture', 'rotate', '35', '200', '420', 'fast']);
  g('rotate/only-x', ['gesture', 'rotate', '35', '200']);
  g('rotate/abc', ['gesture', 'rotate', 'abc']);
  g('rotate/two-extra', ['gesture', 'rotate', '35', '200', '420', '2', '3']);
  g('rotate/large', ['gesture', 'rotate', '100000']);
  // transform
  g('transform/too-many', ['gesture', 'transform', '200', '420', '80', '-40', '2', '35', '500', '1']);
  g('transform/missing-degrees', ['gesture', 'transform', '200', '420', '80', '-40', '2']);
  g('transform/duration-15', ['gesture', 'transform', '200', '420', '80', '-40', '2', '35', '15']);
  g('transform/duration-var', ['gesture', 'transform', '200', '420', '80', '-40', '2', '35', '${DUR}']);
  g('transform/scale-0', ['gesture', 'transform', '200', '420', '80', '-40', '0', '35']);
  // drag
  g('drag/holds', ['gesture', 'drag', 'id="a"', 'label="B"', '800', '500', '0']);
  g('drag/holds-short', ['gesture', 'drag', '@e1', '@e2', '40', '64', '32']);
  g('drag/hold-0', ['gesture', 'drag', '@e1', '@e2', '0']);
  g('drag/move-abc', ['gesture', 'drag', '@e1', '@e2', '800', 'abc']);
  g('drag/total-over', ['gesture', 'drag', '@e1', '@e2', '5000', '5000', '1']);
  g('drag/too-many', ['gesture', 'drag', '@e1', '@e2', '800', '500', '0', '1']);
  g('drag/missing-destination', ['gesture', 'drag', '@e1']);
  g('drag/empty-source', ['gesture', 'drag', '', '@e2']);
  g('drag/blank-source', ['gesture', 'drag', '   ', '@e2']);
  g('drag/pointerCount-ignored', ['gesture', 'drag', '@e1', '@e2'], 'ios', { pointerCount: 2 });
  // unknown kinds
  g('unknown/tap', ['gesture', 'tap', '1', '2']);
  g('unknown/none', ['gesture']);
  g('unknown/PAN', ['gesture', 'PAN', '200', '420', '0', '-80']);
}

// ---- 8. The top-level swipe command (series) --------------------------------

function swipeCases() {
  const s = (name, argv, swipe, platform = 'ios', vp = VP[defaultVpFor(platform)]) =>
    add(`swipe/${name}`, withPlatform({ argv: ['swipe', ...argv], ...(swipe ? { swipe } : {}), viewport: vp }, platform));
  for (const platform of PLATFORMS) {
    const p = platName(platform);
    const vp = VP[defaultVpFor(platform)];
    const a = at(vp, 0.8, 0.5);
    const b = at(vp, 0.2, 0.5);
    const pos = [a.x, a.y, b.x, b.y].map(String);
    s(`${p}/single`, pos, undefined, platform);
    s(`${p}/count-3`, pos, { count: 3 }, platform);
    s(`${p}/ping-pong-4`, pos, { count: 4, pauseMs: 30, pattern: 'ping-pong' }, platform);
    s(`${p}/one-way-2`, pos, { count: 2, pattern: 'one-way' }, platform);
  }
  const pos = ['100', '200', '300', '400'];
  s('removed-duration', [...pos, '500']);
  s('removed-duration-var', [...pos, '${DUR}']);
  s('removed-duration-non-numeric-coords', ['abc', '200', '300', '400', '500']);
  s('removed-duration-negative-delta', ['300', '400', '100', '200', '250']);
  s('removed-duration-fractional', ['100.5', '200', '300', '400.25', '500']);
  s('extra-non-numeric', [...pos, 'abc']);
  s('two-extra', [...pos, '500', '600']);
  s('missing-y2', ['100', '200', '300']);
  s('no-args', []);
  s('from-x-abc', ['abc', '200', '300', '400']);
  s('to-y-abc', ['100', '200', '300', 'abc']);
  s('hex-and-exponent', ['0x64', '2e2', '300', '400']);
  for (const count of [0, 1, 200, 201, 1.5, -1, '3', null]) {
    if (count === 200) continue; // covered by the cap boundary below
    s(`count=${JSON.stringify(count)}`, pos, { count });
  }
  for (const pauseMs of [-1, 0, 10000, 10001, 1.5, '10', null]) s(`pauseMs=${JSON.stringify(pauseMs)}`, pos, { count: 2, pauseMs });
  for (const pattern of ['zigzag', 'PING-PONG', '', null, 'one-way', 'ping-pong']) s(`pattern=${JSON.stringify(pattern)}`, pos, { count: 3, pattern });
  s('pause-10000-without-count', pos, { pauseMs: 10000 });
  // the 60 s cap: count*100 + (count-1)*pause <= 60000
  s('cap/count-200-pause-201-fits', pos, { count: 200, pauseMs: 201, pattern: 'ping-pong' });
  s('cap/count-200-pause-202-over', pos, { count: 200, pauseMs: 202 });
  s('cap/count-200-pause-200-fits', pos, { count: 200, pauseMs: 200 }, 'android');
  s('cap/count-200-pause-10000-over', pos, { count: 200, pauseMs: 10000 });
  s('cap/count-6-pause-10000-fits', pos, { count: 6, pauseMs: 10000, pattern: 'ping-pong' });
  s('cap/count-7-pause-10000-over', pos, { count: 7, pauseMs: 10000 });
  s('cap/count-100-pause-505-fits', pos, { count: 100, pauseMs: 505, pattern: 'ping-pong' });
  s('cap/count-100-pause-506-over', pos, { count: 100, pauseMs: 506 });
  s('cap/count-101-pause-500-over', pos, { count: 101, pauseMs: 500 });
  s('cap/count-21-pause-2900-fits', pos, { count: 21, pauseMs: 2900 });
  s('cap/count-21-pause-2901-over', pos, { count: 21, pauseMs: 2901 });
  s('cap/over-and-bad-pattern', pos, { count: 200, pauseMs: 10000, pattern: 'zigzag' });
  s('cap/over-but-bad-point', ['abc', '200', '300', '400'], { count: 200, pauseMs: 10000 });
  // bounds on each iteration
  s('oob/from-x-0.99', ['0.99', '400', '200', '400'], { count: 2, pattern: 'ping-pong' });
  s('oob/from-x-1', ['1', '400', '200', '400'], { count: 2, pattern: 'ping-pong' });
  s('oob/to-x-389.01', ['200', '400', '389.01', '400'], { count: 3 });
  s('oob/to-x-389', ['200', '400', '389', '400'], { count: 3, pattern: 'ping-pong' });
  s('oob/offset-viewport', ['150', '250', '300', '300'], { count: 2, pattern: 'ping-pong' }, 'ios', VP.offset);
  s('oob/offset-viewport-outside', ['50', '250', '300', '300'], { count: 2 }, 'ios', VP.offset);
  s('frac-viewport', ['10.5', '300.25', '380', '300.25'], { count: 3, pattern: 'ping-pong' }, 'android', VP.frac);
  s('viewport-invalid', pos, { count: 2 }, 'ios', { x: 0, y: 0, width: -1, height: 10 });
}

// ---- 9. Lowering --------------------------------------------------------------

function plannedOrDie(fn) {
  const p = fn();
  if (!p || typeof p !== 'object') fail('lowering fixture plan did not plan');
  return JSON.parse(JSON.stringify(p));
}

function loweringCases() {
  const plans = [];
  const P = (name, intent, vp, platform) => plans.push([name, plannedOrDie(() => planGesture(intent, vp, platform))]);
  const D = (name, drag, vp) => plans.push([name, plannedOrDie(() => planTargetAuthoredDrag(drag, vp))]);
  const px = VP.pixel;
  const ip = VP.iphone;
  for (const preset of ['left', 'right', 'left-edge', 'right-edge']) P(`fling-preset-${preset}`, { intent: 'fling', preset }, px, 'android');
  for (const dir of ['up', 'down', 'left', 'right']) P(`fling-${dir}`, { intent: 'fling', direction: dir, origin: { x: 540, y: 1500 }, distance: 300 }, px, 'android');
  P('fling-from-to', { intent: 'fling', from: { x: 540, y: 1500 }, to: { x: 540, y: 900 } }, px, 'android');
  P('fling-from-to-fractional', { intent: 'fling', from: { x: 100.5, y: 1500.25 }, to: { x: 900.75, y: 300.125 } }, px, 'android');
  for (const dur of [16, 17, 24, 25, 40, 48, 56, 100, 333, 500, 1000, 2999, 10000]) {
    P(`pan-${dur}ms`, { intent: 'pan', origin: { x: 540, y: 1500 }, delta: { x: 0, y: -600 }, durationMs: dur }, px, 'android');
  }
  P('pan-diagonal-fractional', { intent: 'pan', origin: { x: 123.4, y: 567.8 }, delta: { x: 345.6, y: -234.5 }, durationMs: 250 }, px, 'android');
  P('pan-zero-delta', { intent: 'pan', origin: { x: 540, y: 1200 }, delta: { x: 0, y: 0 }, durationMs: 80 }, px, 'android');
  P('pan-endpoint-hold', { intent: 'pan', origin: { x: 540, y: 1500 }, delta: { x: 0, y: -600 }, durationMs: 400, executionProfile: 'endpoint-hold' }, px, 'android');
  P('pan-offset-viewport', { intent: 'pan', origin: { x: 300, y: 500 }, delta: { x: -100, y: 300 }, durationMs: 120 }, VP.offset, 'android');
  D('drag-defaults', { from: { x: 200, y: 400 }, to: { x: 800, y: 1600 } }, px);
  D('drag-40-64-32', { from: { x: 200, y: 400 }, to: { x: 800, y: 1600 }, sourceHoldMs: 40, moveMs: 64, destinationHoldMs: 32 }, px);
  D('drag-1-16-0', { from: { x: 200, y: 400 }, to: { x: 800, y: 1600 }, sourceHoldMs: 1, moveMs: 16, destinationHoldMs: 0 }, px);
  D('drag-1-16-1', { from: { x: 200, y: 400 }, to: { x: 800, y: 1600 }, sourceHoldMs: 1, moveMs: 16, destinationHoldMs: 1 }, px);
  D('drag-7-17-9', { from: { x: 200.5, y: 400.25 }, to: { x: 800.125, y: 1600 }, sourceHoldMs: 7, moveMs: 17, destinationHoldMs: 9 }, px);
  D('drag-300-200-100', { from: { x: 100, y: 300 }, to: { x: 300, y: 700 }, sourceHoldMs: 300, moveMs: 200, destinationHoldMs: 100 }, ip);
  D('drag-same-point', { from: { x: 200, y: 400 }, to: { x: 200, y: 400 }, sourceHoldMs: 50, moveMs: 50, destinationHoldMs: 50 }, px);
  P('two-pinch-android', { intent: 'pinch', scale: 0.5 }, px, 'android');
  P('two-rotate-android', { intent: 'rotate', degrees: 35 }, px, 'android');
  P('two-pan2-android', { intent: 'pan', pointerCount: 2, origin: { x: 540, y: 1200 }, delta: { x: 100, y: -100 }, durationMs: 100 }, px, 'android');
  P('two-transform-android', { intent: 'transform', origin: { x: 540, y: 1200 }, delta: { x: 80, y: -40 }, scale: 1.5, degrees: 20, durationMs: 160 }, px, 'android');
  P('two-pinch-ios', { intent: 'pinch', scale: 2 }, ip, 'ios');
  P('two-pan2-ios', { intent: 'pan', pointerCount: 2, origin: { x: 200, y: 420 }, delta: { x: 80, y: -40 }, durationMs: 100 }, ip, 'ios');
  P('two-rotate-ios', { intent: 'rotate', degrees: -90, origin: { x: 200, y: 420 } }, ip, 'ios');
  P('two-transform-ios', { intent: 'transform', origin: { x: 200, y: 420 }, delta: { x: 20, y: 10 }, scale: 0.8, degrees: 45, durationMs: 120 }, ip, 'ios');
  P('ios-fling-preset-left', { intent: 'fling', preset: 'left' }, ip, 'ios');
  P('ios-pan', { intent: 'pan', origin: { x: 200, y: 420 }, delta: { x: 0, y: -80 } }, ip, 'ios');
  P('web-pan', { intent: 'pan', origin: { x: 640, y: 360 }, delta: { x: -300, y: 0 }, durationMs: 300 }, VP.web, 'web');

  for (const [name, plan] of plans) {
    add(`lower/android/${name}`, { lower: 'android', plan });
    add(`lower/webdriver/${name}`, { lower: 'webdriver', plan });
  }
  // Scroll-only extras (not planner output): the Android scroll executor adds
  // releaseBehavior to a pan plan; the lowering eases "controlled" segments
  // and drops the key. Names contain "releaseBehavior".
  const scrollBase = plannedOrDie(() => planGesture({ intent: 'pan', origin: { x: 540, y: 1500 }, delta: { x: 0, y: -600 }, durationMs: 100 }, px, 'android'));
  const scroll300 = plannedOrDie(() => planGesture({ intent: 'pan', origin: { x: 540, y: 1680 }, delta: { x: 0, y: -960 }, durationMs: 300 }, px, 'android'));
  const scroll16 = plannedOrDie(() => planGesture({ intent: 'pan', origin: { x: 540, y: 1680 }, delta: { x: 0, y: -960 }, durationMs: 16 }, px, 'android'));
  add('lower/android/releaseBehavior-controlled-100ms', { lower: 'android', plan: { ...scrollBase, releaseBehavior: 'controlled' } });
  add('lower/android/releaseBehavior-controlled-300ms', { lower: 'android', plan: { ...scroll300, releaseBehavior: 'controlled' } });
  add('lower/android/releaseBehavior-controlled-16ms', { lower: 'android', plan: { ...scroll16, releaseBehavior: 'controlled' } });
  add('lower/android/releaseBehavior-inertial-300ms', { lower: 'android', plan: { ...scroll300, releaseBehavior: 'inertial' } });
}

// ---- 10. Seeded random cases ---------------------------------------------------

function randomViewport(r) {
  if (r.chance(0.7)) return VP[r.pick(PHONE_VPS)];
  const portrait = r.chance(0.7);
  const w = r.chance(0.5) ? r.int(240, 1440) : r.float(240, 1440, 2);
  const h = r.chance(0.5) ? r.int(320, 3200) : r.float(320, 3200, 2);
  return {
    x: r.chance(0.6) ? 0 : r.float(-50, 200, r.pick([0, 1, 2])),
    y: r.chance(0.4) ? 0 : r.float(0, 150, r.pick([0, 1, 2])),
    width: portrait ? Math.min(w, h) : Math.max(w, h),
    height: portrait ? Math.max(w, h) : Math.min(w, h),
  };
}

function randomPoint(r, vp, margin = 0.1) {
  if (r.chance(0.05)) {
    // near an edge, possibly outside the inset
    const fx = r.pick([0, 1]);
    return { x: round(vp.x + fx * vp.width + (fx ? -1 : 1) * r.float(0, 3, 2), 2), y: round(vp.y + vp.height * r.float(0.2, 0.8, 3), 2) };
  }
  const d = r.pick([0, 0, 1, 2]);
  return {
    x: round(vp.x + vp.width * (margin + r.next() * (1 - 2 * margin)), d),
    y: round(vp.y + vp.height * (margin + r.next() * (1 - 2 * margin)), d),
  };
}

function randomDelta(r, vp, spread = 0.3) {
  const d = r.pick([0, 0, 1, 2]);
  return {
    x: round((r.next() * 2 - 1) * vp.width * spread, d),
    y: round((r.next() * 2 - 1) * vp.height * spread, d),
  };
}

const randomDuration = (r) => r.weighted([[() => undefined, 2], [() => r.int(16, 400), 7], [() => r.int(400, 1200), 1], [() => r.pick([15, 16, 10001, 16.5]), 0.3]])();
const randomScale = (r) => r.weighted([[() => 1, 1], [() => r.float(0.2, 1, 2), 4], [() => r.float(1, 4, 2), 4], [() => r.float(0.05, 8, 4), 1]])();
const randomDegrees = (r) => r.weighted([[() => 0, 0.5], [() => r.int(-180, 180), 5], [() => r.float(-360, 360, 2), 3], [() => r.int(-1440, 1440), 0.2]])();

function randomGesture(r, vp, intentForm) {
  const kind = r.weighted([['pan1', 18], ['pan2', 15], ['fling', 14], ['preset', 5], ['fromto', intentForm ? 5 : 0], ['pinch', 14], ['rotate', 13], ['transform', 16]]);
  const origin = randomPoint(r, vp);
  switch (kind) {
    case 'pan1':
    case 'pan2': {
      const dur = randomDuration(r);
      const g = intentForm
        ? { intent: 'pan', origin, delta: randomDelta(r, vp), ...(kind === 'pan2' ? { pointerCount: 2 } : r.chance(0.3) ? { pointerCount: 1 } : {}), ...(dur === undefined ? {} : { durationMs: dur }) }
        : { kind: 'pan', origin, delta: randomDelta(r, vp), ...(kind === 'pan2' ? { pointerCount: 2 } : r.chance(0.3) ? { pointerCount: 1 } : {}), ...(dur === undefined ? {} : { durationMs: dur }) };
      if (intentForm && kind === 'pan1' && r.chance(0.3)) g.executionProfile = 'endpoint-hold';
      return [kind, g];
    }
    case 'fling': {
      const direction = r.pick(['up', 'down', 'left', 'right']);
      const distance = r.weighted([[undefined, 3], [r.int(1, Math.round(Math.min(vp.width, vp.height) * 0.6)), 5], [0, 0.1]]);
      const extra = distance === undefined ? {} : { distance };
      return [kind, intentForm ? { intent: 'fling', direction, origin, ...extra } : { kind: 'fling', direction, origin, ...extra }];
    }
    case 'preset': {
      const preset = r.pick(['left', 'right', 'left-edge', 'right-edge']);
      return [kind, intentForm ? { intent: 'fling', preset } : { kind: 'swipe', preset }];
    }
    case 'fromto':
      return [kind, { intent: 'fling', from: origin, to: randomPoint(r, vp) }];
    case 'pinch': {
      const scale = randomScale(r);
      const o = r.chance(0.5) ? { origin } : {};
      return [kind, intentForm ? { intent: 'pinch', scale, ...o } : { kind: 'pinch', scale, ...o }];
    }
    case 'rotate': {
      const degrees = randomDegrees(r);
      const o = r.chance(0.5) ? { origin } : {};
      return [kind, intentForm ? { intent: 'rotate', degrees, ...o } : { kind: 'rotate', degrees, ...o }];
    }
    case 'transform': {
      const dur = randomDuration(r);
      const body = { origin, delta: randomDelta(r, vp, 0.15), scale: randomScale(r), degrees: randomDegrees(r), ...(dur === undefined ? {} : { durationMs: dur }) };
      return [kind, intentForm ? { intent: 'transform', ...body } : { kind: 'transform', ...body }];
    }
  }
  throw new Error('unreachable');
}

function randomCases() {
  const r = prng(0x0f10_0215);
  for (const platform of PLATFORMS) {
    const p = platName(platform);
    for (let i = 0; i < 220; i += 1) {
      const vp = randomViewport(r);
      const intentForm = r.chance(0.4);
      const [kind, g] = randomGesture(r, vp, intentForm);
      const name = `random/${p}/${String(i).padStart(3, '0')}-${intentForm ? 'intent' : 'input'}-${kind}`;
      add(name, withPlatform(intentForm ? { intent: g, viewport: vp } : { input: g, viewport: vp }, platform));
    }
  }
  // random target-authored drags
  for (let i = 0; i < 80; i += 1) {
    const vp = randomViewport(r);
    const drag = {
      from: randomPoint(r, vp, 0.05),
      to: randomPoint(r, vp, 0.05),
      ...(r.chance(0.7) ? { sourceHoldMs: r.weighted([[r.int(1, 100), 3], [r.int(100, 1500), 3], [r.pick([0, 1, 10000]), 0.3]]) } : {}),
      ...(r.chance(0.7) ? { moveMs: r.weighted([[r.int(16, 200), 3], [r.int(200, 1500), 3], [r.pick([15, 16, 10000]), 0.3]]) } : {}),
      ...(r.chance(0.6) ? { destinationHoldMs: r.weighted([[0, 2], [r.int(1, 500), 3], [r.pick([10000, 10001]), 0.3]]) } : {}),
    };
    add(`random/drag/${String(i).padStart(3, '0')}`, { drag, viewport: vp });
  }
  // random positional gestures
  const num = (v) => String(v);
  for (let i = 0; i < 120; i += 1) {
    const platform = r.pick(PLATFORMS);
    const vp = VP[defaultVpFor(platform)];
    const o = randomPoint(r, vp);
    const form = r.pick(['pan', 'pan2', 'fling', 'pinch', 'rotate', 'transform', 'swipe']);
    let argv;
    let extra = {};
    switch (form) {
      case 'pan':
      case 'pan2': {
        const d = randomDelta(r, vp);
        const dur = randomDuration(r);
        argv = ['gesture', 'pan', num(o.x), num(o.y), num(d.x), num(d.y), ...(dur === undefined ? [] : [num(dur)])];
        if (form === 'pan2') extra = { pointerCount: 2 };
        break;
      }
      case 'fling':
        argv = ['gesture', 'fling', r.pick(['up', 'down', 'left', 'right']), num(o.x), num(o.y), ...(r.chance(0.5) ? [num(r.int(1, 400))] : [])];
        break;
      case 'pinch':
        argv = ['gesture', 'pinch', num(randomScale(r)), ...(r.chance(0.5) ? [num(o.x), num(o.y)] : [])];
        break;
      case 'rotate':
        argv = ['gesture', 'rotate', num(randomDegrees(r)), ...(r.chance(0.5) ? [num(o.x), num(o.y)] : [])];
        break;
      case 'transform': {
        const d = randomDelta(r, vp, 0.15);
        const dur = randomDuration(r);
        argv = ['gesture', 'transform', num(o.x), num(o.y), num(d.x), num(d.y), num(randomScale(r)), num(randomDegrees(r)), ...(dur === undefined ? [] : [num(dur)])];
        break;
      }
      case 'swipe': {
        const b = randomPoint(r, vp);
        argv = ['swipe', num(o.x), num(o.y), num(b.x), num(b.y)];
        const count = r.weighted([[undefined, 2], [r.int(1, 5), 3]]);
        const pattern = r.weighted([[undefined, 2], ['one-way', 1], ['ping-pong', 2]]);
        const pauseMs = r.weighted([[undefined, 2], [r.int(0, 500), 1]]);
        const sw = { ...(count === undefined ? {} : { count }), ...(pauseMs === undefined ? {} : { pauseMs }), ...(pattern === undefined ? {} : { pattern }) };
        if (Object.keys(sw).length > 0) extra = { swipe: sw };
        break;
      }
    }
    add(`random/argv/${String(i).padStart(3, '0')}-${platName(platform)}-${form}`, withPlatform({ argv, ...extra, viewport: vp }, platform));
  }
  // random lowering: plans from random valid intents
  let made = 0;
  for (let attempt = 0; made < 100 && attempt < 5000; attempt += 1) {
    const platform = r.pick(['android', 'ios', 'web']);
    const vp = randomViewport(r);
    let plan;
    try {
      if (r.chance(0.2)) {
        plan = planTargetAuthoredDrag({ from: randomPoint(r, vp), to: randomPoint(r, vp), sourceHoldMs: r.int(1, 300), moveMs: r.int(16, 600), destinationHoldMs: r.pick([0, 0, r.int(1, 300)]) }, vp);
      } else {
        const [, g] = randomGesture(r, vp, true);
        plan = planGesture(g, vp, platform);
      }
    } catch {
      continue;
    }
    if (!plan || plan.durationMs > 1500) continue;
    plan = JSON.parse(JSON.stringify(plan));
    const lower = plan.topology === 'two' ? (r.chance(0.3) ? 'android' : 'webdriver') : r.pick(['android', 'webdriver']);
    add(`random/lower/${String(made).padStart(3, '0')}-${lower}-${plan.topology}-${plan.intent}`, { lower, plan });
    made += 1;
  }
}

// ---------------------------------------------------------------------------
// Bench inputs: valid two-contact intents
// ---------------------------------------------------------------------------

function benchInputs() {
  const r = prng(0xbe4c_0002);
  const vps = { android: [VP.pixel, VP.pixel2340, VP.androidInset, VP.androidSmall], ios: [VP.iphone, VP.iphoneSafe, VP.iphoneSE, VP.ipad] };
  const out = [];
  const kinds = ['pinch', 'rotate', 'transform', 'pan2'];
  for (let attempt = 0; out.length < 200; attempt += 1) {
    if (attempt > 100000) fail('bench inputs: too many rejected candidates');
    const platform = out.length % 2 === 0 ? 'android' : 'ios';
    const vp = r.pick(vps[platform]);
    const kind = kinds[Math.floor(out.length / 2) % kinds.length];
    const origin = randomPoint(r, vp, 0.3);
    const dur = r.weighted([[undefined, 2], [r.int(100, 800), 6]]);
    const durObj = dur === undefined ? {} : { durationMs: dur };
    let intent;
    switch (kind) {
      case 'pinch': intent = { intent: 'pinch', scale: r.chance(0.5) ? r.float(0.3, 0.95, 2) : r.float(1.05, 2.5, 2), ...(r.chance(0.6) ? { origin } : {}) }; break;
      case 'rotate': intent = { intent: 'rotate', degrees: r.int(-180, 180), ...(r.chance(0.6) ? { origin } : {}) }; break;
      case 'transform': intent = { intent: 'transform', origin, delta: randomDelta(r, vp, 0.1), scale: r.float(0.6, 1.6, 2), degrees: r.int(-90, 90), ...durObj }; break;
      case 'pan2': intent = { intent: 'pan', pointerCount: 2, origin, delta: randomDelta(r, vp, 0.2), ...durObj }; break;
    }
    const line = JSON.parse(JSON.stringify({ intent, viewport: vp, platform }));
    try {
      const p = planGesture(line.intent, line.viewport, line.platform);
      if (!p || p.topology !== 'two') continue;
    } catch {
      continue;
    }
    out.push(line);
  }
  return out;
}

// ---------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------

function checkOutputNumbers(v, where, stats) {
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) fail(`non-finite number in output of ${where}`);
    if (Object.is(v, -0)) stats.negativeZero += 1;
  } else if (Array.isArray(v)) {
    for (const x of v) checkOutputNumbers(x, where, stats);
  } else if (v && typeof v === 'object') {
    for (const x of Object.values(v)) checkOutputNumbers(x, where, stats);
  }
}

function caseKind(c) {
  if ('input' in c) return 'input';
  if ('intent' in c) return 'intent';
  if ('drag' in c) return 'drag';
  if ('argv' in c) return c.argv[0] === 'swipe' ? 'argv-swipe' : 'argv-gesture';
  if ('lower' in c) return `lower-${c.lower}`;
  return '?';
}

async function main() {
  if (process.argv.includes('--bench-inputs')) {
    const lines = benchInputs();
    process.stdout.write(lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    process.stderr.write(`oracle: ${lines.length} two-contact bench inputs\n`);
    return;
  }

  normalizationCases();
  publicCases();
  viewportCases();
  boundsCases();
  intentCases();
  dragCases();
  argvCases();
  swipeCases();
  loweringCases();
  randomCases();

  const stats = { negativeZero: 0, byKind: {}, plans: 0, errors: 0, reasons: {}, codes: {} };
  const out = [];
  for (const { name, case: c } of cases) {
    const want = await run(c);
    checkOutputNumbers(want, name, stats);
    const kind = caseKind(c);
    const k = (stats.byKind[kind] ??= { plan: 0, plans: 0, lowered: 0, error: 0 });
    if (want.error) {
      k.error += 1;
      stats.errors += 1;
      const reason = want.error.details?.reason ?? (want.error.code === 'JS_EXCEPTION' ? 'JS_EXCEPTION' : want.error.code);
      stats.reasons[reason] = (stats.reasons[reason] ?? 0) + 1;
    } else if (want.plan) {
      k.plan += 1;
      stats.plans += 1;
    } else if (want.plans) {
      k.plans += 1;
      stats.plans += 1;
    } else if (want.lowered) {
      k.lowered += 1;
    }
    out.push(JSON.stringify({ name, case: c, want }));
  }
  process.stdout.write(out.join('\n') + '\n');
  const bytes = out.reduce((s, l) => s + Buffer.byteLength(l) + 1, 0);
  process.stderr.write(`oracle: ${JSON.stringify({ cases: out.length, plans: stats.plans, errors: stats.errors, bytes, negativeZeroOutputs: stats.negativeZero, byKind: stats.byKind, errorReasons: stats.reasons })}\n`);
}

try {
  await main();
} finally {
  cleanup();
}
