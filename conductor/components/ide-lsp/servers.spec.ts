// Routing by extension and finding a server's program: pure logic over the built-in table and a
// temporary folder. Rust has no installable rust-analyzer here (not on npm, not in Debian
// bookworm), so this is where its routing is checked; Go and the others also run for real in
// conductor/test/ideLsp*.process.spec.ts.
import * as assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { BUILTIN_SERVERS, languageIdOf, resolveServer, serverForFile, ServerUnavailableError } from './servers';

/** No opt-in: PATH only. */
const onPath = (envPath: string) => ({ allowWorkspaceBinaries: false, envPath });

describe('ide-lsp server routing', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'ide-lsp-servers-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('routes each file by extension to its language server', () => {
    const routed = (file: string) => serverForFile(BUILTIN_SERVERS, file)?.command;
    assert.equal(routed('/w/src/main.rs'), 'rust-analyzer');
    assert.equal(routed('/w/cmd/main.go'), 'gopls');
    assert.equal(routed('/w/a/B.TSX'), 'typescript-language-server');
    assert.equal(routed('/w/x.mjs'), 'typescript-language-server');
    assert.equal(routed('/w/pkg/mod.pyi'), 'pyright-langserver');
    assert.equal(routed('/w/notes.lua'), undefined);
    const rust = serverForFile(BUILTIN_SERVERS, '/w/lib.rs')!;
    assert.equal(languageIdOf('/w/lib.rs', rust), 'rust');
    assert.deepEqual(rust.args, []);
  });

  it('finds a native server on PATH and runs it directly; a missing one names what to install', () => {
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    const program = join(bin, 'rust-analyzer');
    writeFileSync(program, '#!/bin/sh\nexit 0\n');
    chmodSync(program, 0o755);
    const rust = BUILTIN_SERVERS.find((s) => s.language === 'rust')!;
    const launch = resolveServer(rust, join(dir, 'workspace'), onPath(bin));
    assert.equal(launch.command, program);
    assert.deepEqual(launch.args, []);
    assert.throws(
      () => resolveServer(rust, join(dir, 'workspace'), onPath(join(dir, 'empty'))),
      (err: Error) =>
        err instanceof ServerUnavailableError &&
        /rust-analyzer was not found on PATH.*rustup component add rust-analyzer/.test(err.message),
    );
  });

  it('runs a node script without a .js name (its first line says node) on this Node, a native program directly', () => {
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    const script = join(bin, 'rust-analyzer');
    writeFileSync(script, '#!/usr/bin/env node\n' + '// padding\n'.repeat(10_000));
    chmodSync(script, 0o755);
    const rust = BUILTIN_SERVERS.find((s) => s.language === 'rust')!;
    const viaNode = resolveServer(rust, join(dir, 'workspace'), onPath(bin));
    assert.equal(viaNode.command, process.execPath);
    assert.deepEqual(viaNode.args, [script]);
    writeFileSync(script, Buffer.concat([Buffer.from('\x7fELF'), Buffer.alloc(1 << 20)]));
    assert.equal(resolveServer(rust, join(dir, 'workspace'), onPath(bin)).command, script);
  });

  describe('programs from the workspace run only with the opt-in, and nothing above the session folder', () => {
    const ts = BUILTIN_SERVERS.find((s) => s.language === 'typescript')!;
    /** A runnable file at `file` (a node script, as npm's bins are). */
    const plant = (file: string): string => {
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, '#!/usr/bin/env node\n');
      chmodSync(file, 0o755);
      return file;
    };
    /** A TypeScript as npm installs it: lib/tsserver.js and the package.json with its version. */
    const plantTypeScript = (modules: string): string => {
      const tsserver = plant(join(modules, 'typescript', 'lib', 'tsserver.js'));
      writeFileSync(join(modules, 'typescript', 'package.json'), '{"version": "5.9.3"}');
      return tsserver;
    };
    let workspace: string;
    let userBin: string;
    let userTsserver: string;
    beforeEach(() => {
      // <dir>/parent/node_modules/… (a parent such as /tmp), <dir>/parent/ws/node_modules/… (the repository)
      workspace = join(dir, 'parent', 'ws');
      for (const root of [join(dir, 'parent'), workspace]) {
        plant(join(root, 'node_modules', '.bin', 'typescript-language-server'));
        plantTypeScript(join(root, 'node_modules'));
      }
      // The user's own install: <dir>/user/lib/node_modules/{typescript-language-server,typescript}, linked from <dir>/user/bin.
      const pkg = join(dir, 'user', 'lib', 'node_modules');
      const cli = plant(join(pkg, 'typescript-language-server', 'lib', 'cli.mjs'));
      userTsserver = plantTypeScript(pkg);
      userBin = join(dir, 'user', 'bin');
      mkdirSync(userBin);
      symlinkSync(cli, join(userBin, 'typescript-language-server'));
    });

    it('without the opt-in: the server and TypeScript from PATH, none of the workspace or its parent', () => {
      const launch = resolveServer(ts, workspace, onPath(userBin));
      assert.equal(launch.program, join(dir, 'user', 'lib', 'node_modules', 'typescript-language-server', 'lib', 'cli.mjs'));
      assert.equal(launch.tsserver, userTsserver, "the TypeScript installed with the server, not the workspace's");
    });

    it('a TypeScript the server would reject (no package.json version) is not passed: the server would look in the workspace itself', () => {
      rmSync(join(dir, 'user', 'lib', 'node_modules', 'typescript', 'package.json'));
      assert.throws(
        () => resolveServer(ts, workspace, onPath(userBin)),
        (err: Error) =>
          err instanceof ServerUnavailableError &&
          /needs TypeScript, and there is none installed with the server/.test(err.message) &&
          err.message.includes(`The workspace has ${join(workspace, 'node_modules', 'typescript', 'lib', 'tsserver.js')}`),
      );
    });

    it('without the opt-in and nothing on PATH: an error that names the workspace server it did not run and the opt-in', () => {
      assert.throws(
        () => resolveServer(ts, workspace, onPath(join(dir, 'empty'))),
        (err: Error) =>
          err instanceof ServerUnavailableError &&
          err.message.includes(`The workspace has ${join(workspace, 'node_modules', '.bin', 'typescript-language-server')}`) &&
          err.message.includes('--allow-workspace-language-servers') &&
          err.message.includes('symposium.languageServers.allowWorkspaceBinaries'),
      );
    });

    it('relative PATH entries (".", "node_modules/.bin") are not searched: they would be the workspace\'s', () => {
      const cwd = process.cwd();
      process.chdir(workspace);
      try {
        assert.throws(() => resolveServer(ts, workspace, onPath(['node_modules/.bin', '.'].join(delimiter))), ServerUnavailableError);
      } finally {
        process.chdir(cwd);
      }
    });

    it("with the opt-in: the session folder's own server and TypeScript, never a parent folder's", () => {
      const launch = resolveServer(ts, workspace, { allowWorkspaceBinaries: true, envPath: join(dir, 'empty') });
      assert.equal(launch.program, join(workspace, 'node_modules', '.bin', 'typescript-language-server'));
      assert.equal(launch.tsserver, join(workspace, 'node_modules', 'typescript', 'lib', 'tsserver.js'));
      // A session in a subfolder (no node_modules of its own) does not borrow the folder above's.
      const sub = join(workspace, 'packages', 'app');
      mkdirSync(sub, { recursive: true });
      assert.throws(() => resolveServer(ts, sub, { allowWorkspaceBinaries: true, envPath: join(dir, 'empty') }), ServerUnavailableError);
      const fromPath = resolveServer(ts, sub, { allowWorkspaceBinaries: true, envPath: userBin });
      assert.equal(fromPath.tsserver, userTsserver);
    });
  });
});
