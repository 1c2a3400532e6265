// @vscode/test-cli configuration (`npm run test:desktop` = build + `vscode-test`): runs the
// extension-host suites in desktop VS Code, on the minimum supported version (package.json
// engines.vscode) and on stable. Needs network access to download VS Code; where that is not possible
// (this repo's CI), `npm test` runs the same suites in code-server instead (scripts/run-ext-tests.mjs).
// src/vscodeTestConfig.unit.test.ts checks this file without downloading anything.
//
// Two runs per version, as in `npm test`: the single-folder suites (src/test/suite/) on test-fixtures/workspace/,
// and the multi-root suite (src/test/multiroot/) on the two-folder workspace it needs.
import { readFileSync, readdirSync } from 'node:fs';
import { defineConfig } from '@vscode/test-cli';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
const minVersion = pkg.engines.vscode.replace(/^\^/, '');

/**
 * The built files of one suite folder (`node esbuild.mjs`: src/test/<dir>/x.test.ts → out/test/<dir>/x.test.js),
 * in name order, the order out/test/index.js runs them in. Listed one by one because test-cli's glob
 * returns files in no particular order, and the suites rely on theirs (01-activation checks that
 * nothing activated the extension before it; 06-deactivation stops every process).
 */
const suiteFiles = (dir) =>
  readdirSync(new URL(`./src/test/${dir}/`, import.meta.url), { recursive: true })
    .filter((f) => f.endsWith('.test.ts'))
    .sort()
    .map((f) => `out/test/${dir}/${f.replace(/\.ts$/, '.js')}`);

const runs = [
  { suffix: '', files: suiteFiles('suite'), workspaceFolder: './test-fixtures/workspace' },
  {
    suffix: '-multiroot',
    files: suiteFiles('multiroot'),
    workspaceFolder: './test-fixtures/workspace-multi/symposium-multi.code-workspace',
  },
];

export default defineConfig(
  [
    ['min', minVersion],
    ['stable', 'stable'],
  ].flatMap(([label, version]) =>
    runs.map((run) => ({
      label: `${label}${run.suffix}`,
      version,
      files: run.files,
      workspaceFolder: run.workspaceFolder,
      launchArgs: ['--disable-extensions'],
      // The same mocha setup as out/test/index.js (the code-server entry point): TDD ui (suite/test).
      mocha: { ui: 'tdd', timeout: 30_000, forbidOnly: !!process.env.CI },
    })),
  ),
);
