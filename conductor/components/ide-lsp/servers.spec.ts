// Routing by extension and finding a server's program: pure logic over the built-in table and a
// temporary folder. Rust has no installable rust-analyzer here (not on npm, not in Debian
// bookworm), so this is where its routing is checked; Go and the others also run for real in
// conductor/test/ideLsp*.process.spec.ts.
import * as assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUILTIN_SERVERS, languageIdOf, resolveServer, serverForFile, ServerUnavailableError } from './servers';

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
    const launch = resolveServer(rust, join(dir, 'workspace'), bin);
    assert.equal(launch.command, program);
    assert.deepEqual(launch.args, []);
    assert.throws(
      () => resolveServer(rust, join(dir, 'workspace'), join(dir, 'empty')),
      (err: Error) =>
        err instanceof ServerUnavailableError && /rust-analyzer was found neither.*rustup component add rust-analyzer/.test(err.message),
    );
  });

  it('runs a node script without a .js name (its first line says node) on this Node, a native program directly', () => {
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    const script = join(bin, 'rust-analyzer');
    writeFileSync(script, '#!/usr/bin/env node\n' + '// padding\n'.repeat(10_000));
    chmodSync(script, 0o755);
    const rust = BUILTIN_SERVERS.find((s) => s.language === 'rust')!;
    const viaNode = resolveServer(rust, join(dir, 'workspace'), bin);
    assert.equal(viaNode.command, process.execPath);
    assert.deepEqual(viaNode.args, [script]);
    writeFileSync(script, Buffer.concat([Buffer.from('\x7fELF'), Buffer.alloc(1 << 20)]));
    assert.equal(resolveServer(rust, join(dir, 'workspace'), bin).command, script);
  });
});
