// A spec that starts a bundle (out/*.js) fails with what to do when the bundle is missing, rather
// than skipping itself: every test script builds first, and a skipped test proves nothing.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

const ROOT = resolve(__dirname, '../..');

/** The bundle's absolute path; throws, naming the command, if it was not built. */
export function builtBundle(name: string): string {
  const file = resolve(ROOT, 'out', name);
  if (!existsSync(file)) throw new Error(`${file} is missing: run \`node esbuild.mjs\` first (npm test and npm run test:* do)`);
  return file;
}
