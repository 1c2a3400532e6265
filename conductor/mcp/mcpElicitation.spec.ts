// The MCP ↔ ACP elicitation mapping (pure parts of mcpElicitation.ts); the bridge itself runs in
// conductor/test/proxiesMcp.process.spec.ts through the real conductor.
import * as assert from 'node:assert/strict';
import { acpElicitationParams, mcpElicitationCapability, mcpElicitationResult } from './mcpElicitation';

const schema = { type: 'object', properties: { name: { type: 'string' } } };

describe('MCP elicitation ↔ ACP elicitation', () => {
  it("offers MCP servers the editor's ACP modes, and nothing when it has none", () => {
    assert.deepEqual(mcpElicitationCapability({ form: {}, url: {} }), { form: {}, url: {} });
    assert.deepEqual(mcpElicitationCapability({ form: {} }), { form: {} });
    assert.deepEqual(mcpElicitationCapability({ url: {} }), { url: {} });
    for (const none of [undefined, {}, { form: null, url: null }, 'yes']) assert.equal(mcpElicitationCapability(none), undefined);
  });

  it('maps a form (mode absent or form) and a URL, scoped to the session and the tool call when known', () => {
    const both = { form: {}, url: {} };
    assert.deepEqual(acpElicitationParams({ message: 'Name?', requestedSchema: schema }, { sessionId: 's', toolCallId: 't' }, both), {
      params: { mode: 'form', sessionId: 's', toolCallId: 't', message: 'Name?', requestedSchema: schema },
    });
    assert.deepEqual(
      acpElicitationParams({ mode: 'url', message: 'Sign in', url: 'https://x.test/', elicitationId: 'e1' }, { sessionId: 's' }, both),
      { params: { mode: 'url', sessionId: 's', message: 'Sign in', url: 'https://x.test/', elicitationId: 'e1' } },
    );
  });

  it('refuses what the editor cannot take or what is malformed, saying why', () => {
    const refused = (mcp: unknown, editor: unknown): string => {
      const r = acpElicitationParams(mcp, { sessionId: 's' }, editor);
      return 'refused' in r ? r.refused : '';
    };
    assert.match(refused({ message: 'x', requestedSchema: schema }, { url: {} }), /does not take form/);
    assert.match(refused({ mode: 'url', message: 'x', url: 'https://x', elicitationId: 'e' }, { form: {} }), /does not take URL/);
    assert.match(refused({ mode: 'url', message: 'x' }, { url: {} }), /needs url and elicitationId/);
    assert.match(refused({ mode: 'telepathy', message: 'x' }, { form: {} }), /unknown elicitation mode/);
    assert.match(refused({ message: 'x' }, { form: {} }), /needs requestedSchema/);
    assert.match(refused({ requestedSchema: schema }, { form: {} }), /needs a message/);
  });

  it("maps the editor's answer back: accept with content, decline, cancel; nothing else", () => {
    assert.deepEqual(mcpElicitationResult({ action: 'accept', content: { name: 'Ada' } }), { action: 'accept', content: { name: 'Ada' } });
    assert.deepEqual(mcpElicitationResult({ action: 'accept' }), { action: 'accept' });
    assert.deepEqual(mcpElicitationResult({ action: 'decline', content: { leaked: true } }), { action: 'decline' });
    assert.deepEqual(mcpElicitationResult({ action: 'cancel' }), { action: 'cancel' });
    for (const bad of [undefined, {}, { action: 'maybe' }, 'accept']) assert.equal(mcpElicitationResult(bad), undefined);
  });
});
