// Tab requests that reach the editor: a tool call's location opens only inside the tab's folder
// or an allowed folder (the path comes from the agent), like the agent's own file reads.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { silentLog } from '../log/logEvent';
import type { TabPayload } from '../protocol/webview';
import type { PermissionBroker } from '../permissions/permissionBroker';
import { DiffStore } from './diffStore';
import { handleTabRequest, type TabRequestContext } from './tabRequests';

const TAB = '11111111-1111-4111-8111-111111111111';

describe('open-location', () => {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'symposium-open-')));
  const ws = path.join(base, 'ws');
  const extra = path.join(base, 'extra');
  for (const d of [ws, extra, path.join(base, 'secret')]) fs.mkdirSync(d);
  fs.symlinkSync(path.join(base, 'secret'), path.join(ws, 'link'));

  function setup(roots: string[]) {
    const opened: { path: string; line?: number }[] = [];
    const sent: TabPayload[] = [];
    const ctx: TabRequestContext = {
      log: silentLog,
      permissions: {} as PermissionBroker,
      diffs: new DiffStore(),
      send: (p) => sent.push(p),
      session: () => undefined,
      editor: {
        openDiff: async () => undefined,
        openLocation: async (p, line) => {
          opened.push({ path: p, line });
        },
      },
      roots: () => roots,
    };
    const open = (p: string, line?: number): void => handleTabRequest(ctx, { type: 'open-location', tabId: TAB, path: p, line });
    return { opened, sent, open };
  }

  it("opens files in the tab's folder (relative paths against it) and in allowed folders", () => {
    const { opened, sent, open } = setup([ws, extra]);
    open(path.join(ws, 'a.ts'), 3);
    open('src/b.ts');
    open(path.join(extra, 'c.md'));
    assert.deepEqual(opened, [
      { path: path.join(ws, 'a.ts'), line: 3 },
      { path: path.join(ws, 'src/b.ts'), line: undefined },
      { path: path.join(extra, 'c.md'), line: undefined },
    ]);
    assert.deepEqual(sent, []);
  });

  it('refuses paths outside them, `..` and symlinks out included, with a notice naming the setting', () => {
    const { opened, sent, open } = setup([ws]);
    for (const p of ['/etc/passwd', path.join(ws, '..', 'secret', 'key'), path.join(ws, 'link', 'key'), path.join(extra, 'c.md')]) open(p);
    assert.deepEqual(opened, []);
    assert.equal(sent.length, 4);
    for (const n of sent) {
      assert.equal(n.type, 'tab-notice');
      assert.match((n as { text: string }).text, /^Not opened: .*symposium\.allowedFolders/s);
    }
  });

  it('a tab without a folder opens nothing', () => {
    const { opened, open } = setup([]);
    open(path.join(ws, 'a.ts'));
    assert.deepEqual(opened, []);
  });
});
