// Prints the closing line of `npm test`: "N passed, N failed" over every stage.
// Each stage leaves test-results/<stage>.json as {passes: string[], failures: {title, err}[]}.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = new URL('../test-results/', import.meta.url).pathname;
let passed = 0;
let failed = 0;
for (const file of readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .sort()) {
  const r = JSON.parse(readFileSync(join(dir, file), 'utf8'));
  const p = (r.passes ?? []).length;
  const f = (r.failures ?? []).length;
  console.log(`${file.replace(/\.json$/, '').padEnd(10)} ${p} passed, ${f} failed`);
  for (const x of r.failures ?? []) console.log(`  FAILED ${x.title}: ${x.err}`);
  passed += p;
  failed += f;
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
