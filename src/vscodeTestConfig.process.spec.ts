// Checks .vscode-test.mjs (the @vscode/test-cli configuration for desktop VS Code, which this
// repo's CI does not run) without downloading VS Code: `vscode-test --list-configuration` resolves
// it with the CLI's own loader, and the runs it lists must give the same suites, in the same order,
// with the same mocha options, as out/test/index.js gets in code-server. Needs the build
// (`node esbuild.mjs`; npm test builds first).
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..');

interface ListedRun {
  path: string;
  config: { label: string; version: string; launchArgs: string[]; workspaceFolder: string };
  extensionTestsPath: string;
  extensionDevelopmentPath: string | string[];
  env: { VSCODE_TEST_OPTIONS: string };
}
interface TestOptions {
  files: string[];
  mochaOpts: Record<string, unknown>;
  preload: string[];
}

/** src/test/<dir>/**\/*.test.ts → the built out/test/<dir>/…test.js, in name order. */
function builtSuite(dir: string): string[] {
  return (fs.readdirSync(path.join(ROOT, 'src/test', dir), { recursive: true }) as string[])
    .filter((f) => f.endsWith('.test.ts'))
    .sort()
    .map((f) => path.join(ROOT, 'out/test', dir, f.replace(/\.ts$/, '.js')));
}

describe('.vscode-test.mjs (@vscode/test-cli, desktop VS Code)', () => {
  let runs: ListedRun[];
  const byLabel = (label: string): ListedRun => {
    const r = runs.find((x) => x.config.label === label);
    assert.ok(r, `a run labelled ${label}`);
    return r;
  };
  const options = (r: ListedRun): TestOptions => JSON.parse(r.env.VSCODE_TEST_OPTIONS) as TestOptions;

  before(function () {
    this.timeout(60_000);
    const bin = path.join(ROOT, 'node_modules/@vscode/test-cli/out/bin.mjs');
    runs = JSON.parse(execFileSync(process.execPath, [bin, '--list-configuration'], { cwd: ROOT, encoding: 'utf8' })) as ListedRun[];
  });

  it('has a single-folder and a multi-root run on the minimum version (engines.vscode) and on stable', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { engines: { vscode: string }; main: string };
    const min = pkg.engines.vscode.replace(/^\^/, '');
    assert.match(min, /^\d+\.\d+\.\d+$/);
    assert.deepEqual(
      runs.map((r) => [r.config.label, r.config.version]),
      [
        ['min', min],
        ['min-multiroot', min],
        ['stable', 'stable'],
        ['stable-multiroot', 'stable'],
      ],
    );
    for (const r of runs) {
      assert.equal(r.path, path.join(ROOT, '.vscode-test.mjs'));
      assert.deepEqual([r.extensionDevelopmentPath].flat(), [ROOT]);
      assert.ok(fs.existsSync(path.join(ROOT, pkg.main)), `${pkg.main} is built`);
    }
  });

  it('lists the built suite files, each run only its own folder, in the order out/test/index.js runs them', () => {
    const single = builtSuite('suite');
    const multi = builtSuite('multiroot');
    assert.ok(single.length > 0 && multi.length > 0);
    for (const f of [...single, ...multi]) assert.ok(fs.existsSync(f), `${f} is built`);
    for (const label of ['min', 'stable']) {
      assert.deepEqual(options(byLabel(label)).files, single, label);
      assert.deepEqual(options(byLabel(`${label}-multiroot`)).files, multi, `${label}-multiroot`);
    }
  });

  it('opens test-fixtures/workspace/ for the single-folder runs and the two-folder .code-workspace for the multi-root runs', () => {
    for (const label of ['min', 'stable'])
      assert.equal(byLabel(label).config.launchArgs.at(-1), path.join(ROOT, 'test-fixtures/workspace'));
    for (const label of ['min-multiroot', 'stable-multiroot']) {
      const file = byLabel(label).config.launchArgs.at(-1)!;
      assert.equal(path.extname(file), '.code-workspace');
      const folders = (JSON.parse(fs.readFileSync(file, 'utf8')) as { folders: { path: string }[] }).folders.map((f) =>
        path.resolve(path.dirname(file), f.path),
      );
      assert.deepEqual(folders, [path.join(ROOT, 'test-fixtures/workspace'), path.join(ROOT, 'test-fixtures/workspace-b')]);
      for (const f of folders) assert.ok(fs.statSync(f).isDirectory(), f);
    }
    for (const r of runs) assert.ok(r.config.launchArgs.includes('--disable-extensions'));
  });

  it('gives the CLI runner the mocha options of out/test/index.js', () => {
    for (const r of runs) {
      const o = options(r);
      assert.equal(o.mochaOpts.ui, 'tdd');
      assert.equal(o.mochaOpts.timeout, 30_000);
      assert.deepEqual(o.preload, []);
      assert.ok(fs.existsSync(r.extensionTestsPath), 'the CLI runner exists');
      createRequire(r.extensionTestsPath).resolve('mocha'); // what the runner requires inside VS Code
    }
  });
});
