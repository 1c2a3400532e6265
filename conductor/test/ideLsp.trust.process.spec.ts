// Which language-server programs the fallback runs, through the real conductor and the real
// typescript-language-server. A hostile repository plants a server in its node_modules/.bin, a
// TypeScript in its node_modules/typescript, and one more server in the folder above it (a session
// under /tmp would see /tmp/node_modules, which anyone may write); each writes a marker file when
// it runs. Without `--allow-workspace-language-servers` none of them runs and the server on PATH
// (the repository's devDependency, with its own TypeScript) answers; with the flag the session
// folder's own server and TypeScript run (they hand over to the real ones, so the answer still
// comes), and the parent's never does.
import * as assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { serverPids } from './languageServerLog';
import { conductorArgs, initialize, newSession, prompt, startProcess, tempDir } from './harness';

const REPO_BIN = resolve(__dirname, '../../node_modules/.bin');
const REAL_CLI = realpathSync(join(REPO_BIN, 'typescript-language-server'));
const REAL_TSSERVER = realpathSync(resolve(__dirname, '../../node_modules/typescript/lib/tsserver.js'));
const TYPESCRIPT_MANIFEST = readFileSync(join(dirname(dirname(REAL_TSSERVER)), 'package.json'), 'utf8');

interface Planted {
  workspace: string;
  markers: { parentServer: string; workspaceServer: string; workspaceTsserver: string };
}

/** A file that records that it ran, then (`then`) loads the real program in the same process. */
function plant(file: string, marker: string, then = ''): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `#!/usr/bin/env node\nrequire('node:fs').writeFileSync(${JSON.stringify(marker)}, 'ran');\n${then}`);
  chmodSync(file, 0o755);
}

function plantedRepository(): Planted {
  const parent = tempDir('symposium-lsp-parent-');
  const workspace = join(parent, 'repo');
  const markerDir = tempDir('symposium-lsp-markers-');
  const markers = {
    parentServer: join(markerDir, 'parent-server'),
    workspaceServer: join(markerDir, 'workspace-server'),
    workspaceTsserver: join(markerDir, 'workspace-tsserver'),
  };
  plant(join(parent, 'node_modules', '.bin', 'typescript-language-server'), markers.parentServer);
  plant(join(parent, 'node_modules', 'typescript', 'lib', 'tsserver.js'), markers.parentServer);
  plant(
    join(workspace, 'node_modules', '.bin', 'typescript-language-server'),
    markers.workspaceServer,
    `import(${JSON.stringify(REAL_CLI)});\n`,
  );
  plant(
    join(workspace, 'node_modules', 'typescript', 'lib', 'tsserver.js'),
    markers.workspaceTsserver,
    `module.exports = require(${JSON.stringify(REAL_TSSERVER)});\n`,
  );
  // With a version, as typescript-language-server wants it: a TypeScript it would take by itself.
  for (const root of [parent, workspace]) writeFileSync(join(root, 'node_modules', 'typescript', 'package.json'), TYPESCRIPT_MANIFEST);
  mkdirSync(join(workspace, 'src'), { recursive: true });
  writeFileSync(join(workspace, 'src', 'shapes.ts'), 'export class Planted {\n\tsize = 1;\n}\nexport const made = new Planted();\n');
  writeFileSync(join(workspace, 'tsconfig.json'), '{"compilerOptions": {"strict": true}, "include": ["src"]}\n');
  return { workspace, markers };
}

const ran = (marker: string): boolean => existsSync(marker);

describe('ide-lsp: which language-server programs run (real conductor, real server)', function () {
  this.timeout(90_000);
  // The repository's servers on PATH, as `npm test` has them; nothing else of this machine's PATH is needed.
  const env = { PATH: [REPO_BIN, process.env.PATH ?? ''].join(delimiter) };

  it("without the opt-in: neither the workspace's server, its TypeScript nor a parent folder's runs; the server on PATH answers", async () => {
    const { workspace, markers } = plantedRepository();
    const h = startProcess(conductorArgs({ components: ['ide-operations'], log: 'info' }), {}, env);
    try {
      await initialize(h, {});
      const sessionId = await newSession(h, workspace);
      const { text } = await prompt(h, sessionId, 'find definition of Planted');
      assert.match(text, /src\/shapes\.ts/, `the PATH server answered: ${text}`);
      assert.equal(ran(markers.workspaceServer), false, "the workspace's node_modules/.bin server did not run");
      assert.equal(ran(markers.workspaceTsserver), false, "the workspace's TypeScript did not run");
      assert.equal(ran(markers.parentServer), false, "the parent folder's server did not run");
      assert.match(
        h.stderr(),
        new RegExp(`started typescript-language-server \\(pid \\d+\\).*${REAL_CLI.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}`),
      );
      assert.equal(serverPids(h.stderr()).length, 1);
    } finally {
      await h.close();
    }
  });

  it("without the opt-in and no server on PATH: a clear answer naming the workspace's server and the opt-in, and nothing runs", async () => {
    const { workspace, markers } = plantedRepository();
    const h = startProcess(conductorArgs({ components: ['ide-operations'], log: 'info' }), {}, { PATH: '/nonexistent' });
    try {
      await initialize(h, {});
      const sessionId = await newSession(h, workspace);
      const { text } = await prompt(
        h,
        sessionId,
        `use tool symposium-ide::hover with ${JSON.stringify({ file: 'src/shapes.ts', line: 1, column: 14 })}`,
      );
      assert.match(text, /typescript-language-server was not found on PATH/);
      assert.match(text, /The workspace has .*node_modules\/\.bin\/typescript-language-server, which runs only with/);
      assert.match(text, /--allow-workspace-language-servers.*symposium\.languageServers\.allowWorkspaceBinaries/);
      for (const m of Object.values(markers)) assert.equal(ran(m), false, `${m} did not run`);
    } finally {
      await h.close();
    }
  });

  it("with --allow-workspace-language-servers: the session folder's own server and TypeScript run, a parent folder's never", async () => {
    const { workspace, markers } = plantedRepository();
    const argv = conductorArgs({ components: ['ide-operations'], log: 'info' });
    argv.splice(2, 0, '--allow-workspace-language-servers');
    const h = startProcess(argv, {}, env);
    try {
      await initialize(h, {});
      const sessionId = await newSession(h, workspace);
      const { text } = await prompt(h, sessionId, 'find definition of Planted');
      assert.match(text, /src\/shapes\.ts/, `the workspace's server answered: ${text}`);
      assert.equal(ran(markers.workspaceServer), true, "the workspace's server ran");
      assert.equal(ran(markers.workspaceTsserver), true, "the workspace's TypeScript ran");
      assert.equal(ran(markers.parentServer), false, "the parent folder's server did not run");
      // A session in a subfolder without node_modules of its own gets the PATH server, not the folder above's.
      const sub = join(workspace, 'src');
      const subSession = await newSession(h, sub);
      const inSub = await prompt(h, subSession, 'find definition of Planted');
      assert.match(inSub.text, /shapes\.ts/);
      assert.equal(ran(markers.parentServer), false);
      const started = h.stderr().match(/started typescript-language-server \(pid \d+\) for \S+.*/g) ?? [];
      assert.equal(started.length, 2, started.join('\n'));
      assert.ok(started[1]!.includes(REAL_CLI), `the subfolder's server is the one on PATH: ${started[1]}`);
    } finally {
      await h.close();
    }
  });
});
