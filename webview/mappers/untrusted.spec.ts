// Untrusted markdown made safe for mynah-ui: checked with the same marked that mynah bundles,
// rendered as mynah renders it (its link template included), in a jsdom document.
import * as assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { Marked, type Tokens } from 'marked';
import { forMynahSafe, safeLabel, safeMarkdown } from './untrusted';

/** marked as mynah-ui configures it: its link template puts the link's text and URL in unescaped. */
const mynahMarked = new Marked({
  renderer: {
    link(token: Tokens.Link): string {
      if (!/^\[(?:\[([^\]]+)\]|([^\]]+))\]\(([^)]+)\)$/.test(token.raw)) return token.href;
      return `<a href="${token.href}" target="_blank" title="${token.title ?? token.text}">${token.text}</a>`;
    },
  },
});

/** The elements a body becomes on the page, and its text. */
function rendered(markdown: string): { tags: string[]; attributes: string[]; text: string; html: string } {
  const html = mynahMarked.parse(markdown, { breaks: true, async: false });
  const doc = new JSDOM(`<body>${html}</body>`).window.document;
  const elements = [...doc.body.querySelectorAll('*')];
  const attributes = elements.flatMap((e) => [...e.attributes].map((a) => a.name));
  return { tags: elements.map((e) => e.tagName.toLowerCase()), attributes, text: doc.body.textContent ?? '', html };
}

/** Elements marked itself makes from markdown; anything else came from the input. */
const MARKDOWN_TAGS = new Set(['p', 'a', 'em', 'strong', 'code', 'pre', 'ul', 'ol', 'li', 'blockquote', 'h1', 'h2', 'h3', 'br', 'del']);
const MARKDOWN_ATTRIBUTES = new Set(['href', 'target', 'title', 'class', 'align', 'start', 'type', 'checked', 'disabled']);
MARKDOWN_TAGS.add('table').add('thead').add('tbody').add('tr').add('th').add('td').add('hr').add('input');

function assertInert(markdown: string): string {
  const safe = safeMarkdown(markdown);
  const { tags, attributes, html } = rendered(safe);
  const foreign = tags.filter((t) => !MARKDOWN_TAGS.has(t));
  assert.deepEqual(foreign, [], `${JSON.stringify(markdown)} made ${foreign.join(', ')}: ${html}`);
  const strange = attributes.filter((a) => !MARKDOWN_ATTRIBUTES.has(a));
  assert.deepEqual(strange, [], `${JSON.stringify(markdown)} made attributes ${strange.join(', ')}: ${html}`);
  return safe;
}

describe('untrusted markdown for mynah-ui', () => {
  it('leaves text without "<" as it is (the same string: a long stream costs one scan)', () => {
    const body = 'chunk 1 chunk 2 **bold** [link](https://example.com) "quoted" `code` & more\n\n```ts\nconst a = 1;\n```';
    assert.equal(safeMarkdown(body), body);
  });

  it('shows raw HTML as the text it is, block and inline', () => {
    const cases = [
      'Hello <b>bold</b> and <img src="x" id="i" style="position:fixed;inset:0">',
      '<style>.mynah-chat-item-buttons { display: none }</style>',
      '<div>\nblock *x*\n</div>\n\nafter',
      'Returns Promise<void> and Map<string, T>',
      '<!-- hidden --> visible',
      '# Title <span style="color:red">x</span>',
      '- item <i>one</i>\n  continued\n- two <u>u</u> `<b>` code',
      '> quote <span>x</span>\n> more',
      '| a | <b>b</b> |\n|---|---|\n| `<x>` | <y style="a"> |',
      'a <img src=x style=position:fixed;inset:0',
      '\\<b>escaped\\</b> and \\\\<b>not</b>',
    ];
    for (const c of cases) {
      const { text } = rendered(assertInert(c));
      for (const word of ['<b>', '<span', '<i>', '<style>', 'Promise<void>', '<img', '<!--', '<div>'])
        if (c.includes(word) && !c.includes(`\\${word}`))
          assert.ok(text.includes(word), `${JSON.stringify(c)}: "${word}" not shown in ${text}`);
    }
  });

  it("keeps code as written: a code span's or block's '<' is mynah's to escape", () => {
    const body = 'Use `<div>` or `a\\<b`:\n\n```html\n<div class="x">\\<</div>\n```\n\n    <indented>\n\nand <b>this</b>';
    const safe = assertInert(body);
    assert.ok(safe.includes('`<div>`') && safe.includes('`a\\<b`'), safe);
    assert.ok(safe.includes('```html\n<div class="x">\\<</div>\n```'), safe);
    assert.ok(safe.includes('    <indented>'), safe);
    assert.ok(safe.includes('&lt;b>this&lt;/b>'), safe);
  });

  it("escapes everything in a link: mynah's template puts a link's text and URL into the page as they are", () => {
    for (const c of [
      '[a<img src=x style=color:red](https://x.example)',
      '[`<img src=x style=color:red>`](https://x.example)',
      '[x](https://x.example/<img/src=x/style=color:red>)',
      '[r]\n\n[r]: https://x.example<img/src=x/style=color:red>',
      'see <https://x.example/<img>',
    ])
      assertInert(c);
    // An autolink reads as before: mynah shows it as its URL.
    const autolink = 'Docs: <https://example.com/a> and <me@example.com>.';
    assert.equal(rendered(assertInert(autolink)).text, rendered(autolink).text);
  });

  it('stays inert on odd input: a fence that never closes, quotes of lists of links, long runs of brackets', () => {
    for (const c of ['```\n<b>unclosed', '> - [x](<y>) <b>\n>   > <i>deep</i> `<c>`', '<'.repeat(5000) + 'b>', '[['.repeat(200) + '<b>'])
      assertInert(c);
  });

  it('labels (menu descriptions, rendered inline) have every "<" escaped', () => {
    assert.equal(safeLabel('Run <b>tests</b>'), 'Run &lt;b>tests&lt;/b>');
    assert.equal(safeLabel('plain'), 'plain');
  });

  it('finds every markdown string of an item or a store, at any depth, and copies only what changes', () => {
    const item = {
      type: 'answer',
      messageId: 'm<1>',
      body: '<b>x</b>',
      header: { body: 'ok', status: { text: '<t>', description: '<d>' } },
      summary: { content: { body: '<s>' }, collapsedContent: [{ body: 'fine' }, { body: '<c>' }] },
      buttons: [{ id: 'b', text: '<keep>' }],
      fileList: { filePaths: ['a<b>.ts'] },
    };
    const safe = forMynahSafe(item);
    assert.equal(safe.body, '&lt;b>x&lt;/b>');
    assert.equal(safe.header.status.description, '&lt;d>');
    assert.equal(safe.summary.content.body, '&lt;s>');
    assert.equal(safe.summary.collapsedContent[1]?.body, '&lt;c>');
    assert.equal(safe.summary.collapsedContent[0], item.summary.collapsedContent[0], 'unchanged parts are shared');
    assert.equal(safe.messageId, 'm<1>', 'ids and plain-text fields are not markdown');
    assert.equal(safe.header.status.text, '<t>');
    assert.equal(safe.fileList, item.fileList);
    assert.equal(safe.buttons[0]?.text, '&lt;keep>', "a button's text is inline markdown in mynah");
    assert.equal(safe.buttons[0]?.id, 'b');
    assert.equal(item.body, '<b>x</b>', 'the input is not changed');
    const store = { quickActionCommands: [{ groupName: 'g<', commands: [{ command: '/x<', description: 'Do <x>' }] }] };
    const menu = forMynahSafe(store).quickActionCommands[0];
    assert.deepEqual(menu, { groupName: 'g&lt;', commands: [{ command: '/x&lt;', description: 'Do &lt;x>' }] });
    const clean = { body: 'no markup', list: [{ description: 'fine' }] };
    assert.equal(forMynahSafe(clean), clean);
  });
});
