// `npm run package:conductor`: the conductor as the npm package `symposium-acp`, for any ACP
// editor (docs/editors.md). Generates a folder (package.json with the `symposium-acp` command,
// the minified conductor bundles, README, LICENSE), `npm pack`s it into
// out/symposium-acp-<version>.tgz, and writes the ACP registry entry that lists it
// (out/symposium-acp-registry.json, in the registry format's `extensions[]`, the slot for proxies).
// No runtime dependencies: everything is bundled, so the tarball installs offline.
//   node scripts/package-conductor.mjs [--out DIR]     prints the tarball's path on its last line
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const outArg = process.argv.indexOf('--out');
const outValue = outArg >= 0 ? process.argv[outArg + 1] : join(root, 'out');
if (!outValue) throw new Error('--out needs a folder');
const outDir = resolve(outValue);
const stage = join(outDir, 'symposium-acp');
const dist = join(stage, 'dist');

const repo = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const { version } = repo;
// The conductor reports its version in its capabilities and --version: it must be the package's.
const conductorVersion = /CONDUCTOR_VERSION = '([^']+)'/.exec(readFileSync(join(root, 'conductor/version.ts'), 'utf8'))?.[1];
if (conductorVersion !== version) fail(`conductor/version.ts says ${conductorVersion}, package.json ${version}: make them equal`);

rmSync(stage, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });
const build = spawnSync(process.execPath, ['esbuild.mjs', '--production', '--conductor-package', `--outdir=${dist}`], {
  cwd: root,
  encoding: 'utf8',
});
if (build.status !== 0) fail(`the build failed:\n${build.stdout}${build.stderr}`);
// The bundles only: source maps would double the download and are of use with the sources alone.
for (const f of readdirSync(dist)) if (f.endsWith('.map')) rmSync(join(dist, f));

const REPOSITORY = 'https://github.com/symposium-dev/symposium-vscode';
const DESCRIPTION =
  'Symposium for any ACP editor: a chain of components (Sparkle, crate sources, IDE tools from language servers, OpenCtx, your own proxies) in front of any ACP agent.';
writeFileSync(
  join(stage, 'package.json'),
  JSON.stringify(
    {
      name: 'symposium-acp',
      version,
      description: DESCRIPTION,
      license: repo.license,
      repository: { type: 'git', url: `git+${REPOSITORY}.git` },
      homepage: `${REPOSITORY}/blob/main/docs/editors.md`,
      keywords: ['acp', 'agent-client-protocol', 'proxy', 'conductor', 'zed', 'jetbrains', 'neovim'],
      bin: { 'symposium-acp': 'dist/symposium-acp.js' },
      files: ['dist/*.js'],
      engines: { node: '>=20' },
    },
    null,
    2,
  ) + '\n',
);
copyFileSync(join(root, 'conductor/package/README.md'), join(stage, 'README.md'));
writeFileSync(join(stage, 'LICENSE'), mitLicense());

const pack = spawnSync('npm', ['pack', stage, '--pack-destination', outDir, '--ignore-scripts', '--json'], {
  cwd: outDir,
  encoding: 'utf8',
  env: { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' },
});
if (pack.status !== 0) fail(`npm pack failed:\n${pack.stdout}${pack.stderr}`);
const [packed] = JSON.parse(pack.stdout);
const tarball = join(outDir, packed.filename);

writeFileSync(join(outDir, 'symposium-acp-registry.json'), JSON.stringify(registryEntry(), null, 2) + '\n');
console.log(`symposium-acp ${version}: ${packed.entryCount} files, ${packed.size} bytes packed, ${packed.unpackedSize} unpacked`);
console.log(tarball);

/**
 * The registry file that lists the package: `{version, agents, extensions}` with the package in
 * `extensions[]`, an entry shaped like an agent's (FORMAT.md of agentclientprotocol/registry). A
 * client runs it as `npx symposium-acp@<version> -- <agent command>`, the agent it chose last.
 */
function registryEntry() {
  return {
    version: '1.0.0',
    agents: [],
    extensions: [
      {
        id: 'symposium-acp',
        name: 'Symposium',
        version,
        description: `${DESCRIPTION} Runs as \`symposium-acp -- <agent command>\`.`,
        repository: REPOSITORY,
        website: `${REPOSITORY}/blob/main/docs/editors.md`,
        license: repo.license,
        distribution: { npx: { package: `symposium-acp@${version}` } },
      },
    ],
  };
}

function mitLicense() {
  return `MIT License

Copyright (c) ${new Date().getUTCFullYear()} The Symposium contributors

Permission is hereby granted, free of charge, to any person obtaining a copy
of this software and associated documentation files (the "Software"), to deal
in the Software without restriction, including without limitation the rights
to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
copies of the Software, and to permit persons to whom the Software is
furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all
copies or substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
SOFTWARE.
`;
}

function fail(message) {
  console.error(`package-conductor: ${message}`);
  process.exit(1);
}
