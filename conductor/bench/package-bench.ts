// npm run bench: the npm package's cold start. Builds the `symposium-acp` tarball, installs it
// offline into an empty prefix (as a Zed or acpx user would), and measures spawn → `initialize`
// answered for <prefix>/bin/symposium-acp against `node out/conductor.js` (what the extension
// runs), both with the default chain in front of ElizACP, interleaved round by round so machine
// noise hits both alike; medians and their ratio. The package also reads (here: looks for) the
// configuration file, and runs its minified bundles. Results go to out/bench/package-results.json.
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { measure } from './measureHop';
import { printGoal } from './goal';
import { median } from './stats';
import { installedPackage } from '../test/packageInstall';
import { tempDir } from '../test/harness';

const OUT = resolve(__dirname, '..');
const CONDUCTOR = resolve(OUT, 'conductor.js');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);

async function main(): Promise<void> {
  const pkg = await installedPackage();
  // No user configuration, a Sparkle home of its own, one compile cache for both (each file has its own entries).
  const env = {
    HOME: tempDir('symposium-bench-home-'),
    XDG_CONFIG_HOME: '',
    SYMPOSIUM_CONFIG: '',
    SPARKLE_DIR: tempDir('symposium-bench-sparkle-'),
    NODE_COMPILE_CACHE: tempDir('symposium-bench-cache-'),
  };
  const paths: Record<string, string[]> = {
    'node out/conductor.js': [CONDUCTOR, '--log', 'warn', '--', process.execPath, CONDUCTOR, 'eliza', '--deterministic'],
    'installed symposium-acp': [pkg.bin, '--log', 'warn', '--', process.execPath, pkg.bin, 'eliza', '--deterministic'],
  };
  const cold: Record<string, number[]> = Object.fromEntries(Object.keys(paths).map((k) => [k, []]));
  for (let round = 0; round < ROUNDS; round++)
    for (const [name, argv] of Object.entries(paths)) {
      const s = await measure(argv, { chunks: 10, prompts: 1, isHop: true, env });
      cold[name]!.push(s.coldStartMs);
    }
  const base = median(cold['node out/conductor.js']!);
  const rows = Object.entries(cold).map(([name, xs]) => ({ name, medianMs: median(xs), ratio: median(xs) / base, samplesMs: xs }));
  console.log(
    `\nthe npm package's cold start (spawn → initialize answered, default chain + ElizACP), ${ROUNDS} rounds, ${process.version}`,
  );
  const installed = rows.find((r) => r.name === 'installed symposium-acp');
  if (installed)
    printGoal({
      area: 'npm package',
      goal: 'the installed symposium-acp starts as fast as node out/conductor.js (≤ 1.05×)',
      figure: `${installed.medianMs.toFixed(0)} ms, ${installed.ratio.toFixed(2)}×`,
      met: installed.ratio <= 1.05,
    });
  for (const r of rows) console.log(`  ${r.name.padEnd(26)} ${r.medianMs.toFixed(0).padStart(5)} ms  ${r.ratio.toFixed(2)}×`);
  writeFileSync(
    resolve(__dirname, 'package-results.json'),
    JSON.stringify({ when: new Date().toISOString(), rounds: ROUNDS, rows }, null, 2),
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
