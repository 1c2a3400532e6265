import * as assert from 'node:assert/strict';
import { tabStoreItem } from './tabStore';

describe('tabStoreItem: what a tab shows besides its cards, for the host test query', () => {
  it('lists the slash commands, pickers with their options, the info line, attachments and @ groups', () => {
    const item = tabStoreItem(
      {
        quickActionCommands: [{ commands: [{ command: '/help' }, { command: '/web' }] }],
        promptInputOptions: [
          {
            id: 'mode',
            type: 'select',
            value: 'ask',
            options: [
              { value: 'ask', label: 'Ask' },
              { value: 'code', label: 'Code' },
            ],
          },
        ],
        promptInputInfo: 'ElizACP · /ws',
        contextCommands: [{ commands: [{ command: 'Files' }] }],
      },
      ['a.ts'],
    );
    assert.equal(item.type, 'tab-store');
    assert.deepEqual(JSON.parse(item.body), {
      commands: ['/help', '/web'],
      pickers: [{ id: 'mode', type: 'select', value: 'ask', options: ['ask', 'code'] }],
      info: 'ElizACP · /ws',
      attached: ['a.ts'],
      contextGroups: ['Files'],
      queuedButtons: [],
    });
  });

  it('is empty, not failing, for a tab mynah does not have', () => {
    assert.deepEqual(JSON.parse(tabStoreItem(null, []).body), {
      commands: [],
      pickers: [],
      info: '',
      attached: [],
      contextGroups: [],
      queuedButtons: [],
    });
  });
});
