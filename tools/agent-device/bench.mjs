#!/usr/bin/env node
// Times agent-device 0.21.5's planGesture over a JSONL file of
//   {"intent": <planner intent>, "viewport": {x,y,width,height}, "platform": "android"|"ios"|...}
// lines, round-robin, and prints one line:
//   agent-device planGesture: <ns> ns/op (<n> plans)
// where an op is one plan and <n> is the number of input lines.
//
// Usage: AGENT_DEVICE_DIR=<install>/node_modules/agent-device node bench.mjs <inputs.jsonl>
//
// Method: warm up for WARMUP_MS, then time rounds of whole passes over the
// inputs. Each round lasts at least ROUND_MS; rounds continue until at least
// MIN_ROUNDS rounds and TOTAL_MS have elapsed. The reported figure is the
// median round's ns per plan.

import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const WARMUP_MS = 500;
const ROUND_MS = 700;
const MIN_ROUNDS = 3;
const TOTAL_MS = 2000;

function fail(msg) {
  process.stderr.write(`bench: ${msg}\n`);
  process.exit(1);
}

const adDir = process.env.AGENT_DEVICE_DIR;
if (!adDir) fail('AGENT_DEVICE_DIR must point at an installed agent-device package');
const inputsPath = process.argv[2];
if (!inputsPath) fail('usage: bench.mjs <inputs.jsonl>');

const pkg = JSON.parse(fs.readFileSync(path.join(adDir, 'package.json'), 'utf8'));
const { n: planGesture } = await import(pathToFileURL(path.join(adDir, 'dist', 'src', 'gesture-plan.js')).href);
if (typeof planGesture !== 'function') fail(`agent-device ${pkg.version}: gesture-plan.js does not export planGesture as n`);

const inputs = fs.readFileSync(inputsPath, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l, i) => {
  try {
    return JSON.parse(l);
  } catch (e) {
    return fail(`${inputsPath}:${i + 1}: ${e.message}`);
  }
});
if (inputs.length === 0) fail(`${inputsPath}: no inputs`);

// Every input must plan; a throwing input would time the error path instead.
inputs.forEach((x, i) => {
  try {
    const p = planGesture(x.intent, x.viewport, x.platform);
    if (!p || !Array.isArray(p.pointers)) throw new Error('no plan');
  } catch (e) {
    fail(`${inputsPath}:${i + 1}: planGesture failed: ${e.message}`);
  }
});

let sink = 0;
function pass() {
  for (let i = 0; i < inputs.length; i += 1) {
    const x = inputs[i];
    const p = planGesture(x.intent, x.viewport, x.platform);
    sink += p.pointers[0].samples.length;
  }
}

const now = () => process.hrtime.bigint();
const ms = (n) => BigInt(n) * 1_000_000n;

// warm-up
for (const end = now() + ms(WARMUP_MS); now() < end;) pass();

const rounds = [];
const start = now();
while (rounds.length < MIN_ROUNDS || now() - start < ms(TOTAL_MS)) {
  let plans = 0;
  const t0 = now();
  let t1;
  do {
    pass();
    plans += inputs.length;
    t1 = now();
  } while (t1 - t0 < ms(ROUND_MS));
  rounds.push(Number(t1 - t0) / plans);
}
rounds.sort((a, b) => a - b);
const median = rounds.length % 2 ? rounds[(rounds.length - 1) / 2] : (rounds[rounds.length / 2 - 1] + rounds[rounds.length / 2]) / 2;
if (sink === 0) fail('no samples planned');
process.stdout.write(`agent-device planGesture: ${median.toFixed(1)} ns/op (${inputs.length} plans)\n`);
