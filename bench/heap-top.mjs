// Sums a sampling heap profile (heap-sample.cjs) by allocation site: bytes per second and, given the
// run's commands per second, bytes per command. `node bench/heap-top.mjs FILE [cmdPerSec] [N]`.
import { readFileSync } from 'node:fs';

const [file, rate = '1000', n = '25'] = process.argv.slice(2);
if (!file) throw new Error('usage: node bench/heap-top.mjs FILE [cmdPerSec] [N]');
const profile = JSON.parse(readFileSync(file, 'utf8'));
const seconds = profile.sampledMs / 1000;
const perCommand = (bytes) => bytes / seconds / Number(rate);
const sites = new Map();
let total = 0;
(function walk(node, stack) {
  const f = node.callFrame;
  const name = `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*\/(node_modules\/|dist\/)/, '$1')}:${f.lineNumber + 1}`;
  const self = node.selfSize;
  total += self;
  if (self > 0) {
    const caller = stack.at(-1) ?? '';
    const key = `${name}  <- ${caller}`;
    sites.set(key, (sites.get(key) ?? 0) + self);
  }
  for (const child of node.children) walk(child, [...stack, name]);
})(profile.head, []);
console.log(
  `${file}: ${seconds.toFixed(1)} s sampled, ${(perCommand(total) / 1024).toFixed(1)} KB a command at ${rate}/s`,
);
for (const [site, bytes] of [...sites].sort((a, b) => b[1] - a[1]).slice(0, Number(n)))
  console.log(`${(perCommand(bytes) / 1024).toFixed(2).padStart(7)} KB  ${site}`);
