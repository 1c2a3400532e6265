// docs/extension.md lists every message type of the webview ⇄ host protocol: no type the code has
// is missing from it, and it names none the code lacks.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { HOST_TO_WEBVIEW_TYPES } from './webview';
import { WEBVIEW_TO_HOST_TYPES } from './webviewToHost';

const doc = fs.readFileSync(path.resolve(__dirname, '../../docs/extension.md'), 'utf8');

/** The types in the first column of the table that follows `heading`. */
function documentedTypes(heading: string): string[] {
  const at = doc.indexOf(heading);
  assert.ok(at >= 0, `docs/extension.md has no "${heading}"`);
  const rows = doc.slice(at).split('\n').slice(1);
  const table = rows.slice(rows.findIndex((l) => l.startsWith('|')));
  const body = table
    .slice(
      0,
      table.findIndex((l) => !l.startsWith('|')),
    )
    .slice(2);
  return body.flatMap((row) => [...(row.split('|')[1] ?? '').matchAll(/`([a-z-]+)`/g)].map((m) => m[1]!));
}

describe('the protocol as docs/extension.md lists it', () => {
  it('webview → host: every type, and nothing else', () => {
    assert.deepEqual(documentedTypes('Webview → host').sort(), [...WEBVIEW_TO_HOST_TYPES].sort());
  });

  it('host → webview: every type, and nothing else', () => {
    assert.deepEqual(documentedTypes('Host → webview').sort(), [...HOST_TO_WEBVIEW_TYPES].sort());
  });
});
