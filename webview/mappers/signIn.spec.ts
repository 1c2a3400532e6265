import * as assert from 'node:assert/strict';
import { applyEntry, emptyConversation } from '../../src/protocol/conversation';
import { signInChoice, signInDismissal, signInToChatItem } from './signIn';
import { tabStoreFor } from './tabStore';

const TAB = '6f1c1d3e-8a2b-4c5d-9e0f-1a2b3c4d5e6f';
const REQ = '0f1c1d3e-8a2b-4c5d-9e0f-1a2b3c4d5e6f';

describe('sign-in card', () => {
  const methods = [
    { id: 'login', name: 'Log in', kind: 'agent' as const },
    { id: 'tui', name: 'Terminal', kind: 'terminal' as const, description: 'runs the CLI' },
    { id: 'key', name: 'Key', kind: 'env_var' as const, hint: 'Set AGENT_KEY in symposium.agents.A.env (your user settings)' },
  ];

  it('shows agent and terminal methods as buttons, env-var ones as instructions; buttons go once signed in', () => {
    const c = emptyConversation();
    applyEntry(c, { type: 'sign-in-required', requestId: REQ, agentName: 'A', message: 'Sign in first', methods });
    const n = c.blocks[0]!;
    assert.ok(n.kind === 'notice' && n.signIn);
    const item = signInToChatItem(n.signIn, 'A', 'notice:x');
    assert.deepEqual(item.buttons?.map((b) => b.text).reverse(), ['Log in', 'Terminal']);
    assert.match(item.body ?? '', /A needs you to sign in\.\*\* Sign in first/);
    assert.match(item.body ?? '', /\*\*Terminal\*\* \(opens a terminal\): runs the CLI/);
    assert.match(item.body ?? '', /Set AGENT\\_KEY in symposium\.agents\.A\.env/);
    assert.deepEqual(signInChoice(c, TAB, `signin:${REQ}:1`), { type: 'sign-in', tabId: TAB, requestId: REQ, methodId: 'tui' });
    assert.equal(signInChoice(c, TAB, `signin:${REQ}:7`), undefined);
    assert.equal(signInChoice(c, TAB, 'perm:x:1'), undefined);

    assert.equal(tabStoreFor(c).promptInputInfo, 'Waiting for you to sign in to A', 'under the prompt too');
    applyEntry(c, { type: 'sign-in-update', requestId: REQ, state: 'working', text: 'Signing in…' });
    assert.deepEqual(signInToChatItem(n.signIn, 'A', 'm').buttons, [], 'no second click while it runs');
    applyEntry(c, { type: 'sign-in-update', requestId: REQ, state: 'failed', text: 'The terminal ended with exit code 1.' });
    assert.equal(signInToChatItem(n.signIn, 'A', 'm').buttons?.length, 2, 'try again');
    applyEntry(c, { type: 'sign-in-update', requestId: REQ, state: 'signed-in', text: 'Signed in to A.' });
    const done = signInToChatItem(n.signIn, 'A', 'm');
    assert.deepEqual([done.buttons, n.resolved], [[], true]);
    assert.match(done.body ?? '', /Signed in to A\./);
  });

  it('an optional card is compact: the methods as buttons (descriptions as tooltips) and Not now; only env-var methods in the text', () => {
    const c = emptyConversation();
    applyEntry(c, { type: 'sign-in-required', requestId: REQ, agentName: 'A', message: 'A offers sign-in.', methods, optional: true });
    const n = c.blocks[0]!;
    assert.ok(n.kind === 'notice' && n.signIn);
    const item = signInToChatItem(n.signIn, 'A', 'notice:x');
    const buttons = [...(item.buttons ?? [])].reverse();
    assert.deepEqual(
      buttons.map((b) => b.text),
      ['Log in', 'Terminal', 'Not now'],
    );
    assert.equal(buttons[1]?.description, 'runs the CLI');
    assert.doesNotMatch(item.body ?? '', /runs the CLI/);
    assert.match((item.body ?? '').replace(/\\/g, ''), /You can sign in to A\.\*\* A offers sign-in\./);
    assert.match(item.body ?? '', /- Or, instead of the buttons below: Set AGENT\\_KEY/);
    assert.equal(item.header?.status?.text, 'Optional');
    assert.doesNotMatch(tabStoreFor(c).promptInputInfo ?? '', /sign in/, 'nothing waits on it');
    assert.deepEqual(signInDismissal(c, TAB, `signin-dismiss:${REQ}`), { type: 'sign-in-dismiss', tabId: TAB, requestId: REQ });
    assert.equal(signInDismissal(c, TAB, `signin:${REQ}:0`), undefined);
    applyEntry(c, { type: 'sign-in-update', requestId: REQ, state: 'closed', text: 'Not now.' });
    assert.deepEqual(signInToChatItem(n.signIn, 'A', 'm').buttons, []);
  });

  it('a required card has no Not now', () => {
    const c = emptyConversation();
    applyEntry(c, { type: 'sign-in-required', requestId: REQ, agentName: 'A', message: 'Sign in first', methods });
    assert.equal(signInDismissal(c, TAB, `signin-dismiss:${REQ}`), undefined);
  });
});
