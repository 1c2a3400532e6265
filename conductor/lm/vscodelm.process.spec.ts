// The `vscodelm` mode end to end: the built conductor (out/conductor.js vscodelm) as a child
// process over real pipes, driven with vscode-jsonrpc the way src/lm/ drives it, with ElizACP
// behind the normal chain. Streaming, follow-ups on one session, mismatch → new session, several
// VS Code tools in one turn, permission bridging, cancellation, and a crash of the agent.
import { strict as assert } from 'node:assert';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { delimiter, resolve } from 'node:path';
import {
  createMessageConnection,
  StreamMessageReader,
  StreamMessageWriter,
  CancellationTokenSource,
  type MessageConnection,
} from 'vscode-jsonrpc/node';
import { CONDUCTOR_JS, testSparkleDir } from '../test/harness';
import {
  LM_PART_METHOD,
  LM_PROVIDE_METHOD,
  type AgentActionInput,
  type AgentDefinition,
  type LmMessage,
  type LmPart,
  type LmPartParams,
  type LmTool,
} from '../../src/protocol/lm';

interface Lm {
  child: ChildProcessWithoutNullStreams;
  conn: MessageConnection;
  ask(messages: LmMessage[], tools?: LmTool[], token?: CancellationTokenSource, agent?: AgentDefinition): Promise<LmPart[]>;
  close(): Promise<void>;
}

function startLm(options: { cwd?: string; env?: Record<string, string>; stderr?: (text: string) => void } = {}): Lm {
  const child = spawn(process.execPath, [CONDUCTOR_JS, 'vscodelm'], {
    env: { ...process.env, SPARKLE_DIR: testSparkleDir(), ...options.env },
    ...(options.cwd ? { cwd: options.cwd } : {}),
  });
  child.stderr.setEncoding('utf8').on('data', (t: string) => options.stderr?.(t));
  const conn = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  const parts = new Map<number, LmPart[]>();
  conn.onNotification(LM_PART_METHOD, (p: LmPartParams) => parts.get(p.requestId)?.push(p.part));
  conn.listen();
  let next = 0;
  return {
    child,
    conn,
    async ask(messages, tools = [], cts, agent = { eliza: { deterministic: true } }) {
      const requestId = ++next;
      parts.set(requestId, []);
      const params = { requestId, modelId: 'symposium-eliza', messages, agent, tools };
      // An undefined token would travel as a second parameter: pass it only when there is one.
      await (cts ? conn.sendRequest(LM_PROVIDE_METHOD, params, cts.token) : conn.sendRequest(LM_PROVIDE_METHOD, params));
      return parts.get(requestId)!;
    },
    async close() {
      conn.dispose();
      child.stdin.end();
      await new Promise((r) => child.once('exit', r));
    },
  };
}

const user = (text: string): LmMessage => ({ role: 'user', content: [{ type: 'text', value: text }] });
const assistant = (content: LmPart[]): LmMessage => ({ role: 'assistant', content });
const text = (parts: LmPart[]): string => parts.map((p) => (p.type === 'text' ? p.value : '')).join('');
const calls = (parts: LmPart[]) => parts.filter((p): p is Extract<LmPart, { type: 'tool_call' }> => p.type === 'tool_call');
const result = (callId: string, value: string): LmPart => ({ type: 'tool_result', callId, content: [{ type: 'text', value }] });

const OPTION_ORDER_AGENT = resolve(__dirname, '../test/fixtures/optionOrderAgent.ts');

const TOOLS: LmTool[] = ['alpha', 'beta', 'gamma'].map((name) => ({
  name,
  description: `the ${name} tool`,
  inputSchema: { type: 'object', properties: { n: { type: 'number' } } },
}));

describe('conductor vscodelm (process)', function () {
  this.timeout(60_000);
  let lm: Lm;
  beforeEach(() => (lm = startLm()));
  afterEach(() => lm.close());

  it('streams a reply, reuses the session for a follow-up, and starts a new one on an edit', async () => {
    const a1 = await lm.ask([user('session info')]);
    // n counts every prompt of the session, Sparkle's embodiment prompt included: compare, don't fix.
    const m1 = /^Session (\S+), prompt (\d+)\.$/.exec(text(a1));
    assert.ok(m1, text(a1));
    const a2 = await lm.ask([user('session info'), assistant(a1), user('session info')]);
    assert.equal(text(a2), `Session ${m1[1]}, prompt ${Number(m1[2]) + 1}.`);
    // An edited history (the first answer changed) is a mismatch: a fresh, primed session.
    const a3 = await lm.ask([user('session info'), assistant([{ type: 'text', value: 'edited' }]), user('session info')]);
    const m3 = /^Session (\S+), prompt (\d+)\.$/.exec(text(a3));
    assert.ok(m3 && m3[1] !== m1[1] && m3[2] === m1[2], text(a3));
  });

  it('bridges several VS Code tools: two calls in one turn, one in the next', async () => {
    const h: LmMessage[] = [user('use tools\nvscode_tools::alpha with {"n":1}\nvscode_tools::beta with {"n":2}')];
    const r1 = await lm.ask(h, TOOLS);
    const c1 = calls(r1);
    assert.deepEqual(c1.map((c) => c.name).sort(), ['alpha', 'beta']);
    h.push(assistant(r1), { role: 'user', content: [...c1].reverse().map((c) => result(c.callId, `${c.name} done`)) });
    const r2 = await lm.ask(h, TOOLS);
    assert.match(text(r2), /alpha: alpha done/);
    assert.match(text(r2), /beta: beta done/);
    h.push(assistant(r2), user('use tool vscode_tools::gamma with {"n":3}'));
    const r3 = await lm.ask(h, TOOLS);
    const [c3] = calls(r3);
    assert.equal(c3?.name, 'gamma');
    assert.deepEqual(c3.input, { n: 3 });
    h.push(assistant(r3), { role: 'user', content: [result(c3.callId, 'gamma done')] });
    assert.match(text(await lm.ask(h, TOOLS)), /gamma done/);
  });

  it('refuses a tool result for an unknown call id without losing the pending call', async () => {
    const h: LmMessage[] = [user('use tool vscode_tools::alpha with {}')];
    const r1 = await lm.ask(h, TOOLS);
    const [c] = calls(r1);
    assert.ok(c);
    await assert.rejects(lm.ask([...h, assistant(r1), { role: 'user', content: [result('nope', 'x')] }], TOOLS), /unknown call id/);
    h.push(assistant(r1), { role: 'user', content: [result(c.callId, 'fine')] });
    assert.match(text(await lm.ask(h, TOOLS)), /fine/);
  });

  it('surfaces a permission request as symposium-agent-action: approve and reject', async () => {
    for (const [answer, expected] of [
      ['approved', /allow|approved|granted/i],
      ['rejected', /reject|denied|declined/i],
    ] as const) {
      const h: LmMessage[] = [user(`request permission for deleting ${answer}`)];
      const r1 = await lm.ask(h);
      const [c] = calls(r1);
      assert.equal(c?.name, 'symposium-agent-action');
      assert.match(String((c.input as { title: string }).title), new RegExp(`deleting ${answer}`));
      h.push(assistant(r1), { role: 'user', content: [result(c.callId, answer)] });
      assert.match(text(await lm.ask(h)), expected);
    }
  });

  it("an approval selects the agent's once option even when allow_always comes first; always only when it is the only one, and the input says so", async () => {
    const agent: AgentDefinition = {
      mcp_server: { name: 'option-order', command: process.execPath, args: ['--import', 'tsx', OPTION_ORDER_AGENT], env: [] },
    };
    const answered = async (kinds: string, answer: 'approved' | 'rejected'): Promise<{ input: AgentActionInput; reply: string }> => {
      const h: LmMessage[] = [user(`ask ${kinds}`)];
      const r1 = await lm.ask(h, [], undefined, agent);
      const [c] = calls(r1);
      assert.equal(c?.name, 'symposium-agent-action', text(r1));
      h.push(assistant(r1), { role: 'user', content: [result(c.callId, answer)] });
      return { input: c.input as AgentActionInput, reply: text(await lm.ask(h, [], undefined, agent)) };
    };
    const all = await answered('allow_always allow_once reject_always reject_once', 'approved');
    assert.equal(all.reply, 'selected allow_once-id');
    assert.deepEqual(
      [all.input.approve_option, all.input.reject_option],
      [
        { name: 'Allow_once option', kind: 'allow_once' },
        { name: 'Reject_once option', kind: 'reject_once' },
      ],
    );
    assert.equal((await answered('allow_always allow_once reject_always reject_once', 'rejected')).reply, 'selected reject_once-id');
    const onlyAlways = await answered('allow_always reject_once', 'approved');
    assert.equal(onlyAlways.reply, 'selected allow_always-id');
    assert.deepEqual(onlyAlways.input.approve_option, { name: 'Allow_always option', kind: 'allow_always' }, 'the confirmation is told');
  });

  it('a request cancelled at once (the cancel arrives before the handler runs) ends at once and changes nothing', async () => {
    const cts = new CancellationTokenSource();
    const pending = lm.ask([user('stream 100000 chunks')], [], cts);
    cts.cancel(); // before the request left: it arrives already cancelled
    await pending.catch(() => undefined);
    assert.match(text(await lm.ask([user('session info')])), /^Session \S+, prompt \d+\.$/);
  });

  it('cancels a streaming response and answers the next request', async () => {
    const cts = new CancellationTokenSource();
    const pending = lm.ask([user('stream 100000 chunks')], [], cts);
    setTimeout(() => cts.cancel(), 300);
    await pending.catch(() => undefined);
    assert.match(text(await lm.ask([user('session info')])), /^Session \S+, prompt \d+\.$/);
  });

  it('fails the request in flight with the exit reason when the agent crashes, then recovers', async () => {
    await assert.rejects(lm.ask([user('crash with code 7')]), /exit|exited|code 7/i);
    assert.match(text(await lm.ask([user('session info')])), /^Session \S+, prompt \d+\.$/);
  });
});

describe('conductor vscodelm inside VS Code: no language-server fallback (process)', function () {
  this.timeout(60_000);
  it('withholds ide-lsp: the ide tools say no IDE is available, and no language server starts', async () => {
    let stderr = '';
    // A workspace with TypeScript, and a language server on PATH that the fallback would start.
    const lm = startLm({
      cwd: resolve(__dirname, '../../test-fixtures/workspace'),
      env: { PATH: [resolve(__dirname, '../../node_modules/.bin'), process.env.PATH ?? ''].join(delimiter) },
      stderr: (t) => (stderr += t),
    });
    try {
      const answer = text(await lm.ask([user('find definition of Parser')]));
      assert.match(answer, /no IDE available/, answer);
      assert.doesNotMatch(answer, /parser\.ts/);
      assert.match(stderr, /component "ide-lsp" left out: the language-server fallback does not run inside VS Code/);
      assert.doesNotMatch(stderr, /started typescript-language-server/);
    } finally {
      await lm.close();
    }
  });
});
