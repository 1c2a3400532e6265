import * as assert from 'node:assert/strict';
import { COMPONENT_NAMES, DEFAULT_COMPONENTS, loadComponents } from './registry';

describe('component registry (lazily loaded components)', () => {
  it('loads, for every listed name, the factory of that name', async () => {
    for (const name of COMPONENT_NAMES) {
      const loaded = await loadComponents([name]);
      assert.equal(loaded.get(name)?.name, name, name);
    }
  });

  it('loads the adapters a component relies on, and only what was asked for', async () => {
    const loaded = await loadComponents(['ide-operations']);
    assert.deepEqual([...loaded.keys()].sort(), ['ide-lsp', 'ide-operations']);
  });

  it('loads nothing for an empty chain and leaves unknown names to assembly', async () => {
    assert.equal((await loadComponents([])).size, 0);
    assert.deepEqual([...(await loadComponents(['passthrough', 'no-such-component'])).keys()], ['passthrough']);
  });

  it('the default chain names only known components', () => {
    for (const name of DEFAULT_COMPONENTS) assert.ok(COMPONENT_NAMES.includes(name), name);
  });
});
