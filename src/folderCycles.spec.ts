// The extension's folders depend on each other one way only: a cycle between two folders (settings/
// parsing what agents/ defines while agents/ reads settings/) means neither can be read alone.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const SRC = __dirname;

function productFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'test' ? [] : productFiles(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.spec.ts') ? [p] : [];
  });
}

/** The first folder under src/ of a file ('' for src/ itself). */
const folderOf = (file: string): string => path.relative(SRC, file).split(path.sep).slice(0, -1)[0] ?? '';

function folderGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of productFiles(SRC)) {
    const from = folderOf(file);
    const text = fs.readFileSync(file, 'utf8');
    for (const m of text.matchAll(/(?:from|import\(|require\()\s*'(\.[^']+)'/g)) {
      const target = path.resolve(path.dirname(file), m[1]!);
      if (!target.startsWith(SRC + path.sep)) continue;
      const to = folderOf(`${target}.ts`);
      if (to !== from && from !== '' && to !== '') (graph.get(from) ?? graph.set(from, new Set()).get(from)!).add(to);
    }
  }
  return graph;
}

function cycles(graph: Map<string, Set<string>>): string[] {
  const found: string[] = [];
  for (const [a, outs] of graph) for (const b of outs) if (a < b && graph.get(b)?.has(a)) found.push(`${a} ↔ ${b}`);
  // Longer cycles: a path back to the start through other folders.
  for (const start of graph.keys()) {
    const stack: [string, string[]][] = [[start, [start]]];
    while (stack.length) {
      const [node, trail] = stack.pop()!;
      for (const next of graph.get(node) ?? []) {
        if (next === start && trail.length > 2) found.push(trail.concat(start).join(' → '));
        else if (!trail.includes(next) && next > start) stack.push([next, trail.concat(next)]);
      }
    }
  }
  return found;
}

describe('src/ folders depend one way only', () => {
  it('no two folders (or more, in a ring) import each other', () => {
    const graph = folderGraph();
    assert.ok(graph.size > 5, 'the import scan found the folders');
    assert.deepEqual(cycles(graph), []);
  });
});
