// The declaration that starts a user's stdio MCP server in its own folder (runInFolder), run as an
// agent runs it: the program starts in that folder, with every argument as written (spaces,
// quotes, `$`, a leading dash), and a folder that is gone is an error, not a start elsewhere.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { runInFolder } from './mcpConfig';

describe('a stdio MCP server run in its own folder (sh changes folder, then becomes the server)', () => {
  let root = '';
  before(() => {
    root = realpathSync(mkdtempSync(path.join(tmpdir(), 'mcp-run-in-')));
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  const run = (folder: string, args: string[]) => {
    const server = runInFolder({ name: 's', command: process.execPath, args, env: [] }, folder);
    return spawnSync(server.command, server.args, { cwd: root, encoding: 'utf8' });
  };

  it('starts the program in the folder with its arguments unchanged', () => {
    const folder = path.join(root, "a folder with 'quotes' and $HOME");
    mkdirSync(folder);
    const args = ['-e', 'console.log(JSON.stringify([process.cwd(), ...process.argv.slice(1)]))', '--', '-x', 'two words', '"$PATH"', '*'];
    const r = run(folder, args);
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), [folder, '-x', 'two words', '"$PATH"', '*']);
  });

  it('a folder that is not there: the server does not start (anywhere)', () => {
    const r = run(path.join(root, 'gone'), ['-e', 'console.log("started")']);
    assert.notEqual(r.status, 0);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /gone/);
  });
});
