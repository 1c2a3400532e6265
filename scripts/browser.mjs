// Shared by the code-server drivers (run-ext-tests.mjs and the *-e2e.mjs): launches Debian chromium
// through playwright-core and opens the workbench served by scripts/vscode-host-run.sh with our
// extension loaded in development mode (or installed from the .vsix; optionally a mocha suite as
// extensionTestsPath), writes a stage's results, and finds the run's processes.
import { chromium } from 'playwright-core';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import util from 'node:util';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const RESULTS_DIR = path.join(ROOT, 'test-results');

/** @typedef {{ passes: string[]; failures: { title: string; err: string }[] }} Results What a stage leaves in test-results/<stage>.json. */

/** @returns {Results} */
export const newResults = () => ({ passes: [], failures: [] });

/** An environment variable the driver cannot run without (scripts/vscode-host-run.sh sets them). */
export function requiredEnv(/** @type {string} */ name) {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run this driver through scripts/vscode-host-run.sh`);
  return value;
}

/**
 * Copies a `.code-workspace` file (path relative to the repo) and every folder it lists into
 * `<runDir>/multi/`, keeping their layout relative to the repo, so the relative folder paths still
 * hold and tests may write into the copies. Returns the copied workspace file's absolute path.
 */
function copyWorkspace(runDir, workspace) {
  const src = path.resolve(ROOT, workspace);
  const folders = JSON.parse(fs.readFileSync(src, 'utf8')).folders ?? [];
  const dest = path.join(runDir, 'multi');
  const inside = (p) => {
    const rel = path.relative(ROOT, p);
    if (!rel || rel.startsWith('..') || path.isAbsolute(rel)) throw new Error(`${workspace}: ${p} is not inside the repo`);
    return rel;
  };
  const copy = (p) => fs.cpSync(p, path.join(dest, inside(p)), { recursive: true });
  copy(path.dirname(src));
  for (const f of folders) copy(path.resolve(path.dirname(src), f.path));
  return path.join(dest, inside(src));
}

/**
 * The browser the tests drive: Debian's chromium-headless-shell (the same Blink without the full
 * browser's windowing: about 12 % less time for the host suites, measured back to back) when it is
 * installed, else Debian's chromium. CHROMIUM_PATH chooses another; the benches set the full
 * chromium, the browser a user runs.
 */
export const chromiumPath = () =>
  process.env.CHROMIUM_PATH ||
  (fs.existsSync('/usr/bin/chromium-headless-shell') ? '/usr/bin/chromium-headless-shell' : '/usr/bin/chromium');

/**
 * That browser, headless, in a fresh profile (a browser that never saw this VS Code), as every
 * driver opens it.
 * @param {{ width: number; height: number }} [viewport]
 */
export function launchBrowser(viewport = { width: 1400, height: 900 }) {
  return chromium.launchPersistentContext(fs.mkdtempSync(path.join(os.tmpdir(), 'chromium-')), {
    executablePath: chromiumPath(),
    headless: true,
    viewport,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      // The chat bench (webview-e2e "keeps pace") reads the heap retained after a collection.
      '--js-flags=--expose-gc',
      '--enable-precise-memory-info',
    ],
  });
}

/**
 * Opens the workbench. `testsPath` (absolute, on the server) runs a mocha suite in the extension
 * host; `env` becomes the host's extensionEnvironment. `installed`: without our development path,
 * so the extension that runs is the one installed in the server (VSCODE_HOST_INSTALL). `workspace` (a `.code-workspace` file relative
 * to the repo) opens a copy of that multi-root workspace instead of the copy of test-fixtures/workspace/.
 * Resolves to { ctx, page, exited } where `exited` resolves with the code passed to
 * window.codeAutomationExit (the test runner's verdict).
 */
/**
 * @param {{ testsPath?: string; env?: Record<string, string>; workspace?: string; viewport?: { width: number; height: number }; log?: boolean; installed?: boolean }} [options]
 */
export async function openWorkbench({
  testsPath,
  env = {},
  workspace,
  viewport = { width: 1400, height: 900 },
  log = true,
  installed = false,
} = {}) {
  const url = requiredEnv('VSCODE_HOST_URL');
  const runDir = requiredEnv('VSCODE_HOST_RUN_DIR');
  if (!url || !runDir) throw new Error('run me through scripts/vscode-host-run.sh');
  const ctx = await launchBrowser(viewport);
  const page = ctx.pages()[0] ?? (await ctx.newPage());
  let done;
  const exited = new Promise((resolve) => {
    done = resolve;
  });
  // The workbench forwards the extension host's console through this hook when a test payload runs.
  await page.exposeFunction('codeAutomationLog', (_type, args) => {
    if (!log) return;
    const text = util.format(...(args ?? []));
    // The offline workbench keeps failing to reach the marketplace; that is noise here.
    if (!/getaddrinfo ENOTFOUND|open-vsx\.org/.test(text)) console.log(text);
  });
  await page.exposeFunction('codeAutomationExit', (code) => done(code));
  const auth = new URL(url).host;
  // Plain paths parse as file:// URIs the remote host ignores; they must name the server.
  const remote = (p) => `vscode-remote://${auth}${p}`;
  const payload = [['extensionDevelopmentPath', remote(ROOT)]];
  if (testsPath) payload.push(['extensionTestsPath', remote(testsPath)]);
  payload.push(['extensionEnvironment', JSON.stringify(env)]);
  const target = workspace
    ? `workspace=${encodeURIComponent(copyWorkspace(runDir, workspace))}`
    : `folder=${encodeURIComponent(path.join(runDir, 'ws'))}`;
  await page.goto(installed ? `${url}/?${target}` : `${url}/?${target}&payload=${encodeURIComponent(JSON.stringify(payload))}`);
  return { ctx, page, exited, runDir };
}

/** Writes test-results/<name>.json as {passes: [titles], failures: [{title, err}]}. */
export function writeResults(name, results) {
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  fs.writeFileSync(path.join(RESULTS_DIR, `${name}.json`), JSON.stringify(results, null, 2));
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * The processes of this code-server run (the SYMPOSIUM_HOST_RUN marker scripts/vscode-host-run.sh
 * puts in their environment) whose command line holds `needle`, by pid.
 * @returns {{ pid: number; cmd: string }[]}
 */
export function runProcesses(/** @type {string} */ runDir, /** @type {string} */ needle) {
  const marker = `SYMPOSIUM_HOST_RUN=${runDir}`;
  const found = [];
  for (const d of fs.readdirSync('/proc')) {
    const pid = Number(d);
    if (!pid || pid === process.pid) continue;
    try {
      const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'latin1').replace(/\0/g, ' ');
      if (!cmd.includes(needle)) continue;
      if (!fs.readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').includes(marker)) continue;
      found.push({ pid, cmd });
    } catch {
      // gone meanwhile
    }
  }
  return found.sort((a, b) => a.pid - b.pid);
}

/** What `runProcesses` found, for an error message. */
export const describeProcesses = (/** @type {{ pid: number; cmd: string }[]} */ found) =>
  found.map((p) => `${p.pid} ${p.cmd.slice(0, 160)}`).join('; ');
