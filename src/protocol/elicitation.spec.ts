import * as assert from 'node:assert/strict';
import { choiceKey, contentFromValues, readElicitation, webUrl, type ElicitationForm } from './elicitation';

const form = (requestedSchema: unknown) => readElicitation({ mode: 'form', sessionId: 's', message: 'm', requestedSchema });

describe('elicitation requests (what a card shows, and the content it sends)', () => {
  it('reads every field kind with titles, descriptions, required and defaults', () => {
    const read = form({
      type: 'object',
      properties: {
        name: { type: 'string', title: 'Name', description: 'Yours', minLength: 2 },
        pick: { type: 'string', oneOf: [{ const: 'a', title: 'A' }, { const: 'b' }], default: 'b' },
        plain: { type: 'string', enum: ['x', 'y'] },
        n: { type: 'number', minimum: 0 },
        i: { type: 'integer', maximum: 9 },
        ok: { type: 'boolean', default: true },
        many: {
          type: 'array',
          items: {
            anyOf: [
              { const: 'p', title: 'P' },
              { const: 'q', title: 'Q' },
            ],
          },
          maxItems: 1,
        },
      },
      required: ['name', 'pick'],
    });
    assert.ok(read.ok && read.prompt.mode === 'form');
    assert.deepEqual(
      read.prompt.form.fields.map((f) => [f.name, f.kind, f.title, f.required]),
      [
        ['name', 'text', 'Name', true],
        ['pick', 'choice', 'pick', true],
        ['plain', 'choice', 'plain', false],
        ['n', 'number', 'n', false],
        ['i', 'integer', 'i', false],
        ['ok', 'boolean', 'ok', false],
        ['many', 'choices', 'many', false],
      ],
    );
    assert.deepEqual(read.scope, { sessionId: 's' });
  });

  it('what a card cannot show is refused with the reason; a URL must be http(s)', () => {
    assert.deepEqual(form({ type: 'object', properties: { x: { type: 'object' } } }), {
      ok: false,
      error: 'the field "x" has a type this client cannot show ("object")',
      scope: { sessionId: 's' },
    });
    assert.equal(readElicitation({ mode: 'form', message: 'm', requestedSchema: {} }).ok, false, 'no session, no request');
    assert.equal(readElicitation({ mode: '_custom', sessionId: 's', message: 'm' }).ok, false);
    for (const url of ['javascript:alert(1)', 'file:///etc/passwd', 'vscode://x', 'not a url']) assert.equal(webUrl(url), undefined, url);
    const read = readElicitation({ mode: 'url', sessionId: 's', message: 'm', url: 'https://Example.com/a?b', elicitationId: 'e' });
    assert.ok(read.ok && read.prompt.mode === 'url' && read.prompt.host === 'example.com');
  });

  it('the content is checked against the form: required, types, bounds, choices; empty optional fields left out', () => {
    const read = form({
      properties: {
        name: { type: 'string', minLength: 2 },
        n: { type: 'integer', minimum: 1 },
        pick: { type: 'string', enum: ['a', 'b'] },
        ok: { type: 'boolean' },
        many: { type: 'array', items: { enum: ['p', 'q'] } },
      },
      required: ['name'],
    });
    assert.ok(read.ok && read.prompt.mode === 'form');
    const f: ElicitationForm = read.prompt.form;
    assert.deepEqual(contentFromValues(f, { name: 'ab', n: '3', pick: 'b', ok: 'true', [choiceKey('many', 1)]: 'true' }), {
      ok: true,
      content: { name: 'ab', n: 3, pick: 'b', ok: true, many: ['q'] },
    });
    assert.deepEqual(contentFromValues(f, { name: 'ab' }), { ok: true, content: { name: 'ab', ok: false } });
    assert.deepEqual(contentFromValues(f, { name: '', n: '1.5', pick: 'z' }), {
      ok: false,
      errors: ['name: this is required.', 'n: not a whole number.', 'pick: not one of the choices.'],
    });
  });
});
