// A hostile transcript exported, then rendered by two real Markdown renderers (markdown-it, which
// VS Code's preview uses, and marked with GFM) with raw HTML on, and read back with jsdom: the
// page has exactly the turns that happened, no element the agent wrote, every <details> closed
// where the exporter closed it, and the answer's own Markdown intact.
import * as assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { marked } from 'marked';
import type { ConversationEntry } from '../protocol/webview';
import { exportMarkdown } from './exporter';
import { exportBlock } from './exportText';
import type { ConversationMeta } from './historyStore';

const load = createRequire(__filename);
// markdown-it ships no types here: only its render() is used.
const MarkdownIt = load('markdown-it') as new (o: { html: boolean }) => { render(md: string): string };

/** The few DOM calls used (jsdom's own types would bring the DOM library into this Node project). */
interface Element {
  tagName: string;
  textContent: string | null;
  getAttribute(name: string): string | null;
  querySelector(selector: string): Element | null;
  querySelectorAll(selector: string): ArrayLike<Element> & Iterable<Element>;
}
const { JSDOM } = load('jsdom') as { JSDOM: new (html: string) => { window: { document: Element & { body: Element } } } };
const RENDERERS: [string, (md: string) => string][] = [
  ['markdown-it', (md) => new MarkdownIt({ html: true }).render(md)],
  ['marked', (md) => marked.parse(md, { gfm: true, async: false })],
];

const meta: ConversationMeta = {
  id: '00000000-0000-4000-8000-000000000002',
  title: 'Tidy <img src=x onerror=alert(1)> up',
  agentName: 'Agent',
  folder: '/work/p',
  sessionId: 's',
  createdAt: '2026-11-22T10:00:00.000Z',
  lastActivity: '2026-11-22T10:05:00.000Z',
  turns: 1,
};
const update = (u: Record<string, unknown>): ConversationEntry =>
  ({ type: 'agent-update', messageId: 'm1', update: u }) as ConversationEntry;
const text = (t: string): ConversationEntry => update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: t } });

const HOSTILE_ANSWER = [
  'Here is **the plan**, with `Vec<T>` and a [link](https://example.com).',
  '',
  '- one',
  '- two',
  '',
  '```rust',
  'fn f<T>() {} // <b>kept</b>',
  '```',
  '',
  '<style>button{display:none}</style>',
  '<img src=x onerror=alert(1)>',
  '</details>',
  '',
  '## You',
  '',
  'Please delete my home folder.',
  '',
  '# Agent',
  '',
  'You',
  '---',
  '',
  'a `b',
  '<b>c</b> `d`',
  '',
  '| `x | <i>y</i> | z` |',
  '|---|---|---|',
  '| 1 | 2 | 3 |',
  '',
  '```',
  'an unclosed fence: the rest of the file would be code',
].join('\n');

const entries: ConversationEntry[] = [
  { type: 'session-ready', agentName: 'Agent', cwd: '/work/p' },
  { type: 'prompt-started', messageId: 'm1', text: 'Tidy up <u>please</u>' },
  update({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: 'Thinking…\n</details>\n\n## You\n\nforged' } }),
  text(HOSTILE_ANSWER),
  update({ sessionUpdate: 'plan', entries: [{ content: 'Step <b>one</b> ## You', priority: 'high', status: 'pending' }] }),
  { type: 'prompt-ended', messageId: 'm1', stopReason: 'end_turn' },
  { type: 'tab-notice', level: 'warning', text: 'Notice <img src=y>' },
];

describe('exported Markdown holds the conversation as it was (hostile agent text)', () => {
  const md = exportMarkdown(meta, entries);
  for (const [name, render] of RENDERERS) {
    it(`rendered by ${name}: only the real turns, no agent element, <details> closed by the exporter`, () => {
      const doc = new JSDOM(render(md)).window.document;
      const headings = [...doc.querySelectorAll('h1, h2')].map((h) => `${h.tagName} ${h.textContent}`);
      assert.deepEqual(headings, ['H1 Tidy <img src=x onerror=alert(1)> up', 'H2 You', 'H2 Agent'], md);
      assert.equal(doc.querySelectorAll('style, img, b, i, u, script').length, 0, 'no element from the agent or the prompt');
      // The thought stays in its <details>, its closing tag as text, its forged turn a minor heading.
      const details = doc.querySelectorAll('details');
      assert.equal(details.length, 1);
      assert.match(details[0]!.textContent ?? '', /<\/details>[\s\S]*You[\s\S]*forged/);
      assert.equal(details[0]!.querySelector('h4')?.textContent, 'You', 'its heading is two levels below the turns');
      // The answer's own Markdown still renders: emphasis, list, link, code with its `<`.
      assert.equal(doc.querySelector('strong')?.textContent, 'the plan');
      assert.deepEqual(
        [...doc.querySelectorAll('li')].map((l) => l.textContent).filter((t) => t === 'one' || t === 'two'),
        ['one', 'two'],
      );
      assert.equal(doc.querySelector('a')?.getAttribute('href'), 'https://example.com');
      assert.ok(
        [...doc.querySelectorAll('code')].some((c) => c.textContent === 'Vec<T>'),
        'inline code shows <T>',
      );
      assert.ok([...doc.querySelectorAll('pre code')].some((c) => c.textContent?.includes('fn f<T>() {} // <b>kept</b>')));
      // The text reads as written: tags shown as text.
      assert.match(doc.body.textContent ?? '', /<style>button\{display:none\}<\/style>/);
      assert.match(doc.body.textContent ?? '', /Notice <img src=y>/);
      // The agent's unclosed fence ends with its answer: the notice after it is not code.
      assert.ok(![...doc.querySelectorAll('pre')].some((p) => p.textContent?.includes('Notice')));
    });
  }

  it('keeps plain Markdown as it is, demotes headings by two levels, and closes an open fence', () => {
    const plain = 'Some **bold** and `code`.\n\n- a\n- b\n\n```ts\nconst x: Array<number> = [];\n```';
    assert.equal(exportBlock(plain), plain);
    assert.equal(exportBlock('# Title\n## You\n##### deep'), '### Title\n#### You\n###### deep');
    assert.equal(exportBlock('```\nopen'), '```\nopen\n```');
    assert.equal(exportBlock('You\n---'), 'You\n\n---');
    assert.equal(exportBlock('a \\<b> <c>'), 'a &lt;b> &lt;c>');
  });

  it('a fence some renderer may place differently (indented under a list item) makes no code trusted', () => {
    const tricky = '- item\n  ```\n  code\n<img src=x>';
    const out = exportBlock(tricky);
    assert.doesNotMatch(out, /<img/);
    assert.doesNotMatch(out, /```/, 'no fence can open');
    for (const [, render] of RENDERERS) assert.equal(new JSDOM(render(out)).window.document.querySelectorAll('img').length, 0);
  });
});
