// The size budget of the shipped bundles: builds them minified as `npm run package`
// does, into a temporary folder, and fails past the budget, on a bundle that is not ASCII, or on
// one the .vsix would leave out. Part of the checks stage of `npm test`
// (scripts/static-checks.mjs); `node scripts/bundle-budget.mjs` prints the table on its own.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const KB = 1000;
const MiB = 1024 * 1024;
/** bundle → its budget in bytes. lm.js loads only with the experimental LM provider on, registry.js with the agent picker, trafficViewer.js with the traffic viewer. */
export const BUDGETS = {
  'extension.js': 300 * KB,
  // The ACP SDK (and zod), loaded on the first agent start (src/agents/acpSdk.ts).
  'acp.js': 150 * KB,
  'lm.js': 100 * KB,
  'registry.js': 60 * KB,
  // The conductor: its launcher, which must stay small (it runs before the agent starts); what the
  // proxy reads at start (the launcher and its role's bundle, esbuild.mjs conductorBuilds: the MCP
  // server stack and the LSP library are bundles of their own, loaded on first use); and all its
  // bundles, against the conductor's budget.
  'conductor.js': 20 * KB,
  'conductor.js+conductor-proxy.js': 450 * KB,
  'conductor*.js': 1.5 * MiB,
  'webview.js': 2.6 * MiB,
  // The protocol traffic viewer: its page (webview/traffic/) and its panel in the host.
  'traffic.js': 30 * KB,
  'trafficViewer.js': 30 * KB,
};

/** The files a budget names: `a+b`, or `prefix*suffix` for every shipped file that matches. */
function filesOf(name, shipped) {
  const star = name.indexOf('*');
  if (star < 0) return name.split('+');
  const [head, tail] = [name.slice(0, star), name.slice(star + 1)];
  return shipped.filter((f) => f.startsWith(head) && f.endsWith(tail));
}

const root = new URL('..', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'symposium-bundles-'));
try {
  const r = spawnSync(process.execPath, ['esbuild.mjs', '--production', `--outdir=${dir}`], { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) {
    console.error(r.stdout, r.stderr);
    process.exit(1);
  }
  // What the .vsix ships: the bundles and their stylesheet (not their source maps).
  const shipped = readdirSync(dir).filter((f) => /\.(js|css)$/.test(f));
  let over = 0;
  for (const [file, budget] of Object.entries(BUDGETS)) {
    const size = filesOf(file, shipped).reduce((sum, part) => sum + statSync(join(dir, part)).size, 0);
    const ok = size <= budget;
    if (!ok) over++;
    console.log(
      `${ok ? 'ok  ' : 'OVER'} ${file.padEnd(30)} ${String(size).padStart(9)} B  budget ${String(Math.round(budget)).padStart(9)} B  (${Math.round((100 * size) / budget)}%)`,
    );
  }
  // V8 keeps a module's source in memory, at two bytes per character for the whole file if one
  // character is outside Latin-1 (esbuild escapes them, but not in regular expressions).
  for (const file of shipped.filter((f) => f.endsWith('.js'))) {
    const text = readFileSync(join(dir, file), 'latin1');
    const at = text.search(/[^\x00-\x7f]/);
    if (at < 0) continue;
    over++;
    console.log(`NOT ASCII ${file}: …${text.slice(Math.max(0, at - 40), at + 20)}… (write a \\u escape in the source)`);
  }
  // Every shipped bundle is in the .vsix: .vscodeignore names them one by one (or by pattern), and a
  // bundle it leaves out works in every test here and fails only once installed.
  const listed = spawnSync('npx', ['vsce', 'ls', '--no-dependencies'], { cwd: root, encoding: 'utf8' });
  if (listed.status !== 0) {
    over++;
    console.log(`vsce ls failed: ${listed.stderr}`);
  } else {
    const inVsix = new Set(listed.stdout.split('\n').map((l) => l.trim()));
    for (const file of shipped) {
      if (inVsix.has(`out/${file}`)) continue;
      over++;
      // vsce lists what is on disk: a bundle missing from out/ says nothing about .vscodeignore.
      console.log(
        existsSync(join(root, 'out', file))
          ? `NOT IN THE VSIX out/${file} (.vscodeignore leaves it out)`
          : `out/${file} is not built, so the .vsix check cannot see it: run node esbuild.mjs first (npm test does)`,
      );
    }
  }
  process.exitCode = over ? 1 : 0;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
