// The shared project scan: one file per project folder per language, the nearest project file
// deciding which project a file belongs to; loose TypeScript files left out once there are
// projects; dependencies, build output, hidden folders and declaration files never chosen.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { scanProjects } from './projectScan';

function tree(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'symposium-projects-'));
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  return root;
}

const byExtension = (file: string): string | undefined =>
  ({ '.ts': 'typescript', '.js': 'typescript', '.py': 'python' })[path.extname(file)];

describe('project scan (src/node/projectScan.ts)', () => {
  it('gives one file per project folder, nested projects apart, skipping what no project owns', async () => {
    const root = tree({
      'loose.ts': '',
      'app/tsconfig.json': '{}',
      'app/src/a.d.ts': '',
      'app/src/main.ts': '',
      'app/src/more.ts': '',
      'app/tools/tsconfig.json': '{}',
      'app/tools/build.ts': '',
      'lib/jsconfig.json': '{}',
      'lib/index.js': '',
      'lib/node_modules/dep/tsconfig.json': '{}',
      'lib/node_modules/dep/index.ts': '',
      'dist/tsconfig.json': '{}',
      'dist/out.ts': '',
      '.hidden/tsconfig.json': '{}',
      '.hidden/x.ts': '',
      'py/pyproject.toml': '',
      'py/pkg/mod.py': '',
      'notes.md': '',
    });
    const { byLanguage, truncated } = await scanProjects(root, byExtension);
    assert.equal(truncated, false);
    assert.deepEqual(byLanguage.get('typescript'), [
      { folder: path.join(root, 'app'), file: path.join(root, 'app/src/main.ts') },
      { folder: path.join(root, 'app/tools'), file: path.join(root, 'app/tools/build.ts') },
      { folder: path.join(root, 'lib'), file: path.join(root, 'lib/index.js') },
    ]);
    assert.deepEqual(byLanguage.get('python'), [{ folder: path.join(root, 'py'), file: path.join(root, 'py/pkg/mod.py') }]);
    assert.deepEqual([...byLanguage.keys()].sort(), ['python', 'typescript']);
  });

  it('follows no link: a linked folder or file is never chosen, so the scan stays inside the folder', async () => {
    const outside = tree({ 'tsconfig.json': '{}', 'secret.ts': '' });
    const root = tree({ 'app/tsconfig.json': '{}', 'app/real.ts': '' });
    fs.symlinkSync(outside, path.join(root, 'linked'));
    fs.symlinkSync(path.join(outside, 'secret.ts'), path.join(root, 'app/a-linked.ts'));
    assert.deepEqual((await scanProjects(root, byExtension)).byLanguage.get('typescript'), [
      { folder: path.join(root, 'app'), file: path.join(root, 'app/real.ts') },
    ]);
  });

  it('keeps loose TypeScript files when the folder has no project', async () => {
    const root = tree({ 'src/b.ts': '', 'a.ts': '' });
    assert.deepEqual((await scanProjects(root, byExtension)).byLanguage.get('typescript'), [{ folder: '', file: path.join(root, 'a.ts') }]);
  });
});
