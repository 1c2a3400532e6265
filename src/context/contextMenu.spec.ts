// The `@` menu over fake context sources: one refresh for a burst of changes, every source's items,
// chosen items resolved by the source that lists their kind (in the order chosen), and a source
// that fails to list is logged, not thrown.
import * as assert from 'node:assert/strict';
import type { LogEvent } from '../log/logEvent';
import type { ContextRef } from '../protocol/webview';
import { Emitter } from '../util/emitter';
import type { ContextSource } from './contextSource';
import { ContextMenu } from './contextMenu';

const ref = (kind: ContextRef['kind'], name: string): ContextRef => ({ kind, uri: `file:///ws/${name}`, name });
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function fakeSource(name: string, kinds: ContextRef['kind'][], items: () => Promise<ContextRef[]>) {
  const changed = new Emitter<void>();
  let disposed = false;
  const source: ContextSource = {
    name,
    kinds,
    onDidChange: changed.event,
    list: items,
    resolve: async (refs) => refs.map((r) => ({ type: 'text' as const, text: `${name}:${r.name}` })),
    dispose: () => {
      disposed = true;
    },
  };
  return {
    source,
    change: () => changed.fire(),
    get disposed() {
      return disposed;
    },
  };
}

function logs(): {
  log: { trace(): void; debug(): void; info(): void; warn(c: string, m: string): void; error(): void };
  warnings: LogEvent[];
} {
  const warnings: LogEvent[] = [];
  return {
    warnings,
    log: {
      trace() {},
      debug() {},
      info() {},
      warn: (category, message) => {
        warnings.push({ timestamp: '', level: 'warn', category, message });
      },
      error() {},
    },
  };
}

describe('ContextMenu', () => {
  it("refreshes once for a burst of changes and tab openings, with every source's items", async () => {
    const files = fakeSource('files', ['file'], async () => [ref('file', 'a.ts')]);
    const symbols = fakeSource('symbols', ['symbol'], async () => [ref('symbol', 'Greeter')]);
    const published: ContextRef[][] = [];
    const { log } = logs();
    const menu = new ContextMenu([files.source, symbols.source], (items) => published.push(items), log, 30);
    files.change();
    symbols.change();
    menu.refresh();
    await sleep(80);
    assert.deepEqual(
      published.map((items) => items.map((i) => i.name)),
      [['a.ts', 'Greeter']],
    );
    menu.dispose();
    assert.ok(files.disposed && symbols.disposed, 'the menu owns its sources');
    files.change();
    await sleep(60);
    assert.equal(published.length, 1, 'nothing after dispose');
  });

  it('resolves each chosen item with the source of its kind, in the order chosen', async () => {
    const files = fakeSource('files', ['file', 'folder'], async () => []);
    const symbols = fakeSource('symbols', ['symbol'], async () => []);
    const menu = new ContextMenu([files.source, symbols.source], () => undefined, logs().log);
    const blocks = await menu.resolve([ref('symbol', 'S'), ref('file', 'f'), ref('folder', 'd')], {}, '/ws');
    assert.deepEqual(
      blocks.map((b) => (b.type === 'text' ? b.text : b.type)),
      ['symbols:S', 'files:f', 'files:d'],
    );
    await assert.rejects(menu.resolve([ref('image', 'p.png')], {}, '/ws'), /No context source handles "image"/);
    menu.dispose();
  });

  it('a source that cannot list is logged and nothing is published', async () => {
    const broken = fakeSource('broken', ['file'], async () => {
      throw new Error('boom');
    });
    const published: ContextRef[][] = [];
    const { log, warnings } = logs();
    const menu = new ContextMenu([broken.source], (items) => published.push(items), log, 10);
    menu.refresh();
    await sleep(50);
    assert.deepEqual(published, []);
    assert.deepEqual(
      warnings.map((w) => w.category),
      ['context'],
    );
    menu.dispose();
  });
});
