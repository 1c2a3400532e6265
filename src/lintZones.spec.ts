// The layer rules of eslint.config.mjs catch each kind of violation: a static import, a dynamic
// `import()`, a `require()`, a Node built-in the old hand-kept list missed, and a conductor
// component reaching into another's folder; and they let the allowed arrows through.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { ESLint } from 'eslint';

const ROOT = path.resolve(__dirname, '..');

async function problems(file: string, code: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: ROOT });
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === 'no-restricted-imports' || m.ruleId === 'no-restricted-syntax')
    .map((m) => m.message);
}

describe('layer zones (eslint.config.mjs)', function () {
  this.timeout(60_000);

  const refused: [string, string, string][] = [
    ['webview/zz.ts', "import { x } from '../src/chat/chatController';", 'a static import'],
    ['webview/zz.ts', "export const f = () => import('../src/chat/chatController');", 'a dynamic import'],
    ['webview/zz.ts', "import * as dns from 'dns';", 'a Node built-in'],
    ['src/protocol/zz.ts', "export const f = () => import('node:fs');", 'a dynamic Node import'],
    ['src/protocol/zz.ts', "import { Worker } from 'worker_threads';\nexport const w = Worker;", 'a Node built-in'],
    ['src/chat/zz.ts', "export const f = () => import('../../conductor/conductor');", 'a dynamic import of the conductor'],
    ['src/chat/zz.ts', "export const m = require('../../webview/model');", 'a require of the webview'],
    ['src/node/zz.ts', "export const f = () => import('vscode');", 'vscode, dynamically'],
    ['src/node/zz.ts', "export const f = () => import('../chat/chatController');", 'the host, dynamically'],
    ['conductor/zz.ts', "export const f = () => import('../src/chat/chatController');", 'the host, dynamically'],
    ['conductor/components/sparkle/zz.ts', "import { x } from '../ide-lsp/component';", 'another component'],
    ['conductor/components/sparkle/zz.ts', "export const f = () => import('../crate-sources/research');", 'another component, dynamically'],
  ];
  for (const [file, code, what] of refused)
    it(`refuses in ${path.dirname(file)}: ${what}`, async () => {
      assert.ok((await problems(file, code)).length > 0, `${code} passed`);
    });

  const allowed: [string, string][] = [
    ['webview/zz.ts', "import type { TabId } from '../src/protocol/webview';\nexport type T = TabId;"],
    ['conductor/zz.ts', "export const f = () => import('../src/node/textFiles');"],
    [
      'conductor/components/sparkle/zz.ts',
      "import { x } from './component';\nimport { y } from '../sessionMcp';\nimport { z } from '../../chain/component';\nexport const a = [x, y, z];",
    ],
    ['src/node/zz.ts', "export const f = () => import('node:zlib');\nexport { errorText } from '../protocol/errorText';"],
    ['src/chat/zz.ts', "export const f = () => import('../node/textFiles');"],
  ];
  for (const [file, code] of allowed)
    it(`allows in ${path.dirname(file)}: ${code.split('\n')[0]}`, async () => {
      assert.deepEqual(await problems(file, code), []);
    });
});
