// src/node/ is the Node-only layer shared by the extension host and the conductor bundle: it may
// import node:* built-ins, its own files and src/protocol (which imports nothing), nothing else (no
// vscode, no conductor code), so either side can use it without dragging the other's dependencies along.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

describe('src/node layer', () => {
  it('imports only node:* built-ins, its own files and src/protocol', () => {
    const files = fs.readdirSync(__dirname).filter((f) => f.endsWith('.ts') && !f.endsWith('.spec.ts'));
    assert.ok(files.length > 0);
    for (const f of files) {
      const text = fs.readFileSync(path.join(__dirname, f), 'utf8');
      for (const m of text.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+['"]([^'"]+)['"]/gm)) {
        const spec = m[1]!;
        assert.ok(spec.startsWith('node:') || /^\.\/[\w.-]+$/.test(spec) || /^\.\.\/protocol\/[\w.-]+$/.test(spec), `${f} imports ${spec}`);
      }
    }
  });
});
