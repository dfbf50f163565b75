// Self time per function in a .cpuprofile (cpu-sample.cjs, --cpu-prof), as a share of the samples:
// `node bench/cpu-top.mjs FILE [N]`.
import { readFileSync } from 'node:fs';

const [file, n = '30'] = process.argv.slice(2);
if (!file) throw new Error('usage: node bench/cpu-top.mjs FILE [N]');
const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const counts = new Map();
for (const id of profile.samples) counts.set(id, (counts.get(id) ?? 0) + 1);
const self = new Map();
for (const [id, count] of counts) {
  const f = byId.get(id).callFrame;
  const name = `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*\/(node_modules\/|dist\/)/, '$1')}:${f.lineNumber + 1}`;
  self.set(name, (self.get(name) ?? 0) + count);
}
const total = profile.samples.length;
const seconds = (profile.endTime - profile.startTime) / 1e6;
const idle = [...self].filter(([name]) => name.startsWith('(idle)')).reduce((a, [, c]) => a + c, 0);
console.log(
  `${file}: ${seconds.toFixed(1)} s, ${total} samples, busy ${(100 * (1 - idle / total)).toFixed(1)}%`,
);
for (const [name, count] of [...self].sort((a, b) => b[1] - a[1]).slice(0, Number(n)))
  console.log(`${((100 * count) / total).toFixed(2).padStart(6)}%  ${name}`);
