// The research session's lifecycle rules, with a scripted agent standing in for the chain
// (pure logic; the real path is covered end to end in conductor/test/crateSources.process.spec.ts).
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ComponentContext, McpInjection } from '../../chain/component';
import { RpcCallError } from '../../chain/chain';
import { createLogger } from '../../log';
import { ResearchSession, runResearch, researchPrompt } from './research';

function scriptedAgent() {
  const notified: { method: string; params: unknown }[] = [];
  const sessionsNew: unknown[] = [];
  let injectionClosed = false;
  const cx: ComponentContext = {
    name: 'crate-sources',
    log: createLogger('off'),
    info: { clientCapabilities: {}, agentCapabilities: {} },
    notify: (_d, method, params) => void notified.push({ method, params }),
    injectMcpServers: async (params) =>
      ({ params, bind: () => undefined, close: async () => void (injectionClosed = true) }) satisfies McpInjection,
    request: (_d, method, _params, options) => {
      if (method === 'session/new') {
        sessionsNew.push(_params);
        options?.onResponse?.({ result: { sessionId: 'research-1' } });
        return Promise.resolve({ sessionId: 'research-1' });
      }
      // session/prompt: the researcher never answers until cancelled.
      return new Promise((_, reject) =>
        options?.signal?.addEventListener('abort', () => reject(new RpcCallError({ code: -32800, message: 'cancelled' }))),
      );
    },
  };
  return { cx, notified, sessionsNew, closed: () => injectionClosed };
}

const request = { crateName: 'serde', prompt: 'how?', cwd: '/', callerSessionId: 'user-1' };
/** A registry folder holding serde's sources, as Debian's /usr/share/cargo/registry does. */
const registryDir = mkdtempSync(join(tmpdir(), 'research-spec-registry-'));
const SERDE = join(registryDir, 'serde-1.0.0');
mkdirSync(SERDE);
writeFileSync(join(SERDE, 'Cargo.toml'), '[package]\nname = "serde"\nversion = "1.0.0"\n');
const locator = {
  cacheDir: '/nonexistent',
  cargoHome: '/nonexistent',
  systemRegistries: [registryDir],
  registry: { indexUrl: 'http://127.0.0.1:9', downloadUrl: 'http://127.0.0.1:9', timeoutMs: 100 },
};

describe('research sessions', () => {
  it('wraps the prompt with read-only researcher instructions', () => {
    const text = researchPrompt({ ...request, crateVersion: '1.0' });
    assert.match(text, /return_response_to_user/);
    assert.match(text, /do NOT edit/);
    assert.match(text, /crate_name="serde" crate_version="1.0"/);
  });

  it('cancels and cleans up a research session that does not answer in time', async () => {
    const agent = scriptedAgent();
    const registered: string[] = [];
    const unregistered: string[] = [];
    const session = new ResearchSession(request, locator);
    const started = Date.now();
    await assert.rejects(
      runResearch(session, agent.cx, {
        timeoutMs: 200,
        callerSignal: new AbortController().signal,
        onProgress: () => undefined,
        register: (s) => void registered.push(s.sessionId!),
        unregister: (s) => void unregistered.push(s.sessionId!),
      }),
      /did not answer within/,
    );
    assert.ok(Date.now() - started < 2000);
    assert.deepEqual(registered, ['research-1']);
    assert.deepEqual(unregistered, ['research-1']);
    assert.deepEqual(agent.notified, [{ method: 'session/cancel', params: { sessionId: 'research-1' } }]);
    assert.ok(agent.closed(), 'the research MCP server was shut down');
  });

  it('cancels the research when the caller is cancelled', async () => {
    const agent = scriptedAgent();
    const caller = new AbortController();
    const session = new ResearchSession(request, locator);
    const run = runResearch(session, agent.cx, {
      timeoutMs: 60_000,
      callerSignal: caller.signal,
      onProgress: () => undefined,
      register: () => undefined,
      unregister: () => undefined,
    });
    setTimeout(() => caller.abort(), 50);
    await assert.rejects(run, /calling turn was cancelled/);
    assert.equal(agent.notified[0]?.method, 'session/cancel');
  });

  it('returns the findings given to return_response_to_user', async () => {
    const agent = scriptedAgent();
    const session = new ResearchSession(request, locator);
    const run = runResearch(session, agent.cx, {
      timeoutMs: 60_000,
      callerSignal: new AbortController().signal,
      onProgress: () => undefined,
      register: () => undefined,
      unregister: () => undefined,
    });
    const server = (await session.createServer()) as unknown as {
      _registeredTools: Record<string, { handler: (a: unknown, e: unknown) => unknown }>;
    };
    await server._registeredTools.return_response_to_user!.handler({ response: 'serde derives Serialize' }, {});
    assert.equal(await run, 'serde derives Serialize');
    // The session starts in the crate's folder (not the caller's cwd), which the researcher may read.
    assert.deepEqual(
      agent.sessionsNew.map((p) => (p as { cwd: string }).cwd),
      [SERDE],
    );
    assert.deepEqual([...session.readableRoots], [SERDE]);
  });

  it('fails before any session when the crate cannot be located', async () => {
    const agent = scriptedAgent();
    const session = new ResearchSession({ ...request, crateName: 'no-such-crate' }, locator);
    await assert.rejects(
      runResearch(session, agent.cx, {
        timeoutMs: 60_000,
        callerSignal: new AbortController().signal,
        onProgress: () => undefined,
        register: () => undefined,
        unregister: () => undefined,
      }),
      /cannot get the sources of no-such-crate/,
    );
    assert.deepEqual(agent.sessionsNew, []);
  });
});
