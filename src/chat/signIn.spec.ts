import * as assert from 'node:assert/strict';
import { silentLog } from '../log/logEvent';
import { ErrorCodes } from '../protocol/errorCodes';
import { signInMethods } from '../protocol/signIn';
import type { TabPayload } from '../protocol/webview';
import { parseWebviewMessage } from '../protocol/webviewMessages';
import { isAuthRequired, SignInFlow, type TerminalSignIn } from './signIn';

const TAB = '6f1c1d3e-8a2b-4c5d-9e0f-1a2b3c4d5e6f';
const METHODS = [
  { id: 'login', name: 'Log in' },
  { type: 'terminal', id: 'tui', name: 'Terminal', args: ['--login'], env: { MODE: 'tui' } },
  { type: 'env_var', id: 'key', name: 'Key', varName: 'AGENT_KEY' },
  { type: 'oauth-device', id: 'future', name: 'Something newer' },
  { id: '', name: 'no id' },
];
const definition = { name: 'Agent', command: '/bin/agent', args: ['--acp'], env: { A: '1' } };

describe('agent sign-in', () => {
  it('maps authMethods to card methods, dropping what cannot be used', () => {
    assert.deepEqual(signInMethods(METHODS, 'symposium.agents.Agent.env'), [
      { id: 'login', name: 'Log in', kind: 'agent' },
      { id: 'tui', name: 'Terminal', kind: 'terminal' },
      {
        id: 'key',
        name: 'Key',
        kind: 'env_var',
        hint: 'Set AGENT_KEY in symposium.agents.Agent.env (your user settings), then restart the agent.',
      },
    ]);
    assert.deepEqual(signInMethods('nope', 'x'), []);
  });

  it('auth required: the ACP code, or an auth-sounding error from an agent that offers methods', () => {
    const offers = { authMethods: METHODS, authenticate: async () => undefined };
    const none = { authMethods: [], authenticate: async () => undefined };
    assert.ok(isAuthRequired({ code: ErrorCodes.authRequired, message: 'x' }, none));
    assert.ok(isAuthRequired({ code: -32603, message: 'Not logged in: run /login' }, offers));
    assert.ok(!isAuthRequired({ code: -32603, message: 'Not logged in' }, none));
    assert.ok(!isAuthRequired({ code: -32603, message: 'disk full' }, offers));
  });

  it('the webview may only answer with a tab, a card and a method id', () => {
    const ok = parseWebviewMessage({ type: 'sign-in', tabId: TAB, requestId: TAB, methodId: 'login' });
    assert.ok(ok.ok);
    assert.ok(!parseWebviewMessage({ type: 'sign-in', tabId: TAB, requestId: 'x', methodId: 'login' }).ok);
    assert.ok(!parseWebviewMessage({ type: 'sign-in', tabId: TAB, requestId: TAB }).ok);
  });

  it('agent method → authenticate, then the session again; terminal method → the agent command + args/env, then a restart', async () => {
    const sent: TabPayload[] = [];
    const retries: string[] = [];
    const authenticated: string[] = [];
    const terminals: TerminalSignIn[] = [];
    let exitCode: number | undefined = 1;
    const flow = new SignInFlow({
      log: silentLog,
      send: (p) => sent.push(p),
      runInTerminal: async (t) => (terminals.push(t), exitCode),
      retry: (tabId, how) => retries.push(`${tabId}:${how}`),
    });
    const agent = { authMethods: METHODS, authenticate: async (id: string) => void authenticated.push(id) };
    assert.equal(flow.offer(TAB, agent, definition, new Error('sign in first')), true);
    const card = sent.at(-1) as Extract<TabPayload, { type: 'sign-in-required' }>;
    assert.equal(card.type, 'sign-in-required');
    assert.equal(card.message, 'sign in first');
    assert.deepEqual(
      card.methods.map((m) => m.id),
      ['login', 'tui', 'key'],
    );

    await flow.choose({ type: 'sign-in', tabId: TAB, requestId: card.requestId, methodId: 'key' });
    assert.deepEqual(authenticated, [], 'env-var methods are not buttons');
    await flow.choose({ type: 'sign-in', tabId: TAB, requestId: card.requestId, methodId: 'login' });
    assert.deepEqual([authenticated, retries], [['login'], [`${TAB}:session`]]);

    await flow.choose({ type: 'sign-in', tabId: TAB, requestId: card.requestId, methodId: 'tui' });
    assert.deepEqual(terminals, [
      { title: 'Sign in: Agent', command: '/bin/agent', args: ['--acp', '--login'], env: { A: '1', MODE: 'tui' } },
    ]);
    assert.match((sent.at(-1) as { text: string }).text, /ended with exit code 1/);
    assert.equal(retries.length, 1, 'a failed terminal sign-in retries nothing');
    exitCode = 0;
    await flow.choose({ type: 'sign-in', tabId: TAB, requestId: card.requestId, methodId: 'tui' });
    assert.equal(retries.at(-1), `${TAB}:restart`);

    flow.sessionStarted(TAB);
    assert.deepEqual(sent.at(-1), {
      type: 'sign-in-update',
      tabId: TAB,
      requestId: card.requestId,
      state: 'signed-in',
      text: 'Signed in to Agent.',
    });
    await flow.choose({ type: 'sign-in', tabId: TAB, requestId: card.requestId, methodId: 'login' });
    assert.equal(authenticated.length, 1, 'a settled card does nothing');
  });

  it('offered on request (optional): the agent method signs in without starting the session again', async () => {
    const sent: TabPayload[] = [];
    const retries: string[] = [];
    const flow = new SignInFlow({ log: silentLog, send: (p) => sent.push(p), retry: (t, how) => retries.push(how) });
    const agent = { authMethods: METHODS, authenticate: async () => undefined };
    assert.ok(flow.offer(TAB, agent, definition, 'Agent offers these ways to sign in.', true));
    const card = sent[0] as Extract<TabPayload, { type: 'sign-in-required' }>;
    assert.deepEqual([card.optional, card.message], [true, 'Agent offers these ways to sign in.']);
    await flow.choose({ type: 'sign-in', tabId: TAB, requestId: card.requestId, methodId: 'login' });
    assert.deepEqual(retries, []);
    assert.equal((sent.at(-1) as { state: string }).state, 'signed-in');
  });

  it('methods listed at initialize: an optional card once per process, kept when the session starts, gone when dismissed, not offered again', () => {
    const sent: TabPayload[] = [];
    const flow = new SignInFlow({ log: silentLog, send: (p) => sent.push(p), retry: () => undefined });
    const agent = { authMethods: METHODS, authenticate: async () => undefined };
    assert.equal(
      flow.offerOnStart(TAB, { authMethods: [], authenticate: async () => undefined }, definition),
      false,
      'no methods, no card',
    );
    assert.equal(flow.offerOnStart(TAB, agent, definition), true);
    const card = sent[0] as Extract<TabPayload, { type: 'sign-in-required' }>;
    assert.deepEqual([card.optional, card.message], [true, 'Optional: the chat works without it.']);
    assert.equal(flow.offerOnStart(TAB, agent, definition), false, 'once per process');
    flow.sessionStarted(TAB, agent);
    assert.equal(sent.length, 1, 'a session starting on the same process leaves it open');
    assert.ok(parseWebviewMessage({ type: 'sign-in-dismiss', tabId: TAB, requestId: card.requestId }).ok);
    assert.ok(!parseWebviewMessage({ type: 'sign-in-dismiss', tabId: TAB, requestId: 'x' }).ok);
    flow.dismiss({ type: 'sign-in-dismiss', tabId: TAB, requestId: card.requestId });
    assert.deepEqual(sent.at(-1), {
      type: 'sign-in-update',
      tabId: TAB,
      requestId: card.requestId,
      state: 'closed',
      text: 'Not now. Sign In to the Agent… offers it again.',
    });
    const restarted = { authMethods: METHODS, authenticate: async () => undefined };
    assert.equal(flow.offerOnStart(TAB, restarted, definition), false, 'answered: not offered again for this agent');
    assert.ok(flow.offer(TAB, restarted, definition, 'Agent offers these ways to sign in.', true), 'the command still offers it');
  });

  it('an optional card of an earlier process closes when the agent restarts', () => {
    const sent: TabPayload[] = [];
    const flow = new SignInFlow({ log: silentLog, send: (p) => sent.push(p), retry: () => undefined });
    const first = { authMethods: METHODS, authenticate: async () => undefined };
    flow.offerOnStart(TAB, first, definition);
    const card = sent[0] as Extract<TabPayload, { type: 'sign-in-required' }>;
    flow.sessionStarted(TAB, { authMethods: METHODS, authenticate: async () => undefined });
    assert.deepEqual(sent.at(-1), {
      type: 'sign-in-update',
      tabId: TAB,
      requestId: card.requestId,
      state: 'closed',
      text: 'Agent restarted.',
    });
  });

  it('no usable method: no card (terminal methods need a terminal)', () => {
    const flow = new SignInFlow({ log: silentLog, send: () => assert.fail('no card'), retry: () => undefined });
    const agent = { authMethods: [METHODS[1]], authenticate: async () => undefined };
    assert.equal(flow.offer(TAB, agent, definition, new Error('x')), false);
  });
});
