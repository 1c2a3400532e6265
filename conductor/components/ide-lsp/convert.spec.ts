import * as assert from 'node:assert/strict';
import { hoverText } from './convert';

describe('hoverText (language-server fallback)', () => {
  it('fences a code part with its language, longer than any backtick run in it', () => {
    assert.equal(hoverText({ contents: { language: 'ts', value: 'class Parser' } }), '```ts\nclass Parser\n```');
    const doc = 'a ```js fence``` in a doc comment';
    assert.equal(hoverText({ contents: [{ language: 'ts', value: doc }, 'text'] }), `\`\`\`\`ts\n${doc}\n\`\`\`\`\n\ntext`);
  });
});
