import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { workspaceOwnStorage } from './workspaceStorage';

describe('workspace storage', () => {
  let home: string;
  beforeEach(() => {
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'workspaceStorage-'));
  });
  afterEach(() => fs.rmSync(home, { recursive: true, force: true }));
  const made = (...parts: string[]): string => {
    const dir = path.join(home, ...parts);
    fs.mkdirSync(dir, { recursive: true });
    return dir;
  };

  it("is the workspace's own storage when another window's extension host holds it (VS Code's <id>-1 … <id>-9)", () => {
    made('-7916210d', 'vscode.lock-holder');
    for (const n of [1, 2, 9])
      assert.equal(workspaceOwnStorage(path.join(home, `-7916210d-${n}`, 'publisher.ext')), path.join(home, '-7916210d', 'publisher.ext'));
    made('0123456789abcdef0123456789abcdef');
    assert.equal(
      workspaceOwnStorage(path.join(home, '0123456789abcdef0123456789abcdef-1', 'publisher.ext')),
      path.join(home, '0123456789abcdef0123456789abcdef', 'publisher.ext'),
    );
  });

  it("stays where VS Code put it otherwise: the workspace's own folder, an id that only looks suffixed, no such workspace", () => {
    made('-7916210d');
    const own = path.join(home, '-7916210d', 'publisher.ext');
    assert.equal(workspaceOwnStorage(own), own);
    // A negative hash ending in digits has no suffix; "-10" is not one of VS Code's (it tries 1 to 9).
    for (const id of ['-79162105', 'abc-10', 'abc-0'])
      assert.equal(workspaceOwnStorage(path.join(home, id, 'publisher.ext')), path.join(home, id, 'publisher.ext'), id);
    // No folder for the unsuffixed id (or a file by that name): not VS Code's extra folder.
    assert.equal(workspaceOwnStorage(path.join(home, 'other-1', 'publisher.ext')), path.join(home, 'other-1', 'publisher.ext'));
    fs.writeFileSync(path.join(home, 'file'), '');
    assert.equal(workspaceOwnStorage(path.join(home, 'file-1', 'publisher.ext')), path.join(home, 'file-1', 'publisher.ext'));
  });
});
