import * as assert from 'node:assert/strict';
import type { SessionConfigOption } from '@agentclientprotocol/sdk';
import { currentMode, modeName, offersValue } from './sessionMode';

describe('sessionMode: which mode a session is in', () => {
  const option: SessionConfigOption = {
    id: 'mode',
    name: 'Mode',
    category: 'mode',
    type: 'select',
    currentValue: 'ask',
    options: [
      { value: 'ask', name: 'Ask first' },
      { value: 'yolo', name: 'YOLO' },
    ],
  };
  const grouped: SessionConfigOption = {
    ...option,
    type: 'select',
    currentValue: 'ask',
    options: [{ group: 'careful', name: 'Careful', options: [{ value: 'ask', name: 'Ask first' }] }],
  };
  const modes = { currentModeId: 'default', availableModes: [{ id: 'default', name: 'Default' }] };

  it('the mode option wins over the older modes list; else the modes list; else none', () => {
    assert.equal(currentMode({ modes, configOptions: [option] }), 'ask');
    assert.equal(currentMode({ modes }), 'default');
    assert.equal(currentMode({}), undefined);
    assert.equal(currentMode({ configOptions: [{ ...option, category: 'model' }] }), undefined, 'a model option is not the mode');
  });

  it('names a mode as its picker shows it, in a group or not; an unknown id stays as it is', () => {
    assert.equal(modeName({ configOptions: [option] }, 'yolo'), 'YOLO');
    assert.equal(modeName({ configOptions: [grouped] }, 'ask'), 'Ask first');
    assert.equal(modeName({ modes }, 'default'), 'Default');
    assert.equal(modeName({ modes }, 'gone'), 'gone');
    assert.ok(offersValue(option, 'ask') && offersValue(option, 'yolo') && !offersValue(option, 'gone'));
    assert.ok(offersValue(grouped, 'ask') && !offersValue(grouped, 'yolo'));
  });
});
