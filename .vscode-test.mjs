// @vscode/test-cli configuration: runs the same extension-host suites (out/test/**/*.test.js, built
// by `node esbuild.mjs`) in desktop VS Code, on the minimum supported version and on stable.
// Needs network access to download VS Code (and `npm i -D @vscode/test-cli @vscode/test-electron`);
// where that is not possible (this repo's CI), scripts/vscode-host-run.sh scripts/run-ext-tests.mjs
// runs the same suites in code-server instead.
import { defineConfig } from '@vscode/test-cli';

const common = {
  files: 'out/test/**/*.test.js',
  workspaceFolder: './test-workspace',
  launchArgs: ['--disable-extensions'],
  mocha: { ui: 'tdd', timeout: 30_000, forbidOnly: !!process.env.CI },
};

export default defineConfig([
  { label: 'min', version: '1.104.0', ...common },
  { label: 'stable', version: 'stable', ...common },
]);
