// ElizACP as a real child process over real pipes, driven by the SDK's client app. (Over 400
// lines: one describe per protocol surface of the same process harness, kept together on purpose.)
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type * as acp from '@agentclientprotocol/sdk';
import { respond } from './engine';
import { DEMO_NEW_TEXT, DEMO_OLD_TEXT, PLAN_REPLY, PLAN_STEPS, READ_DEMO_TEXT, STORY, thoughts } from './demos';
import { ElizaHarness, messageText, waitFor } from './test-harness';

type Update<K extends acp.SessionUpdate['sessionUpdate']> = Extract<acp.SessionUpdate, { sessionUpdate: K }>;
function ofKind<K extends acp.SessionUpdate['sessionUpdate']>(updates: readonly acp.SessionUpdate[], kind: K): Array<Update<K>> {
  return updates.filter((u): u is Update<K> => u.sessionUpdate === kind);
}

async function rejectsWithCode(promise: Promise<unknown>, code: number, message?: string): Promise<void> {
  await assert.rejects(promise, (err: unknown) => {
    const e = err as { code?: number; message?: string };
    return e.code === code && (message === undefined || e.message === message);
  });
}

describe('ElizACP over stdio (process)', function () {
  this.timeout(20000);
  let eliza: ElizaHarness;
  let dir: string;
  let sessionId: string;

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'eliza-test-'));
    writeFileSync(path.join(dir, 'a.txt'), 'line1\nline2\nline3\n');
    eliza = await ElizaHarness.start(['--deterministic']);
    sessionId = (await eliza.newSession(dir)).sessionId;
  });

  after(async () => {
    await eliza?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers initialize with version 1, agentInfo and capabilities', () => {
    const init = eliza.initializeResponse;
    assert.equal(init.protocolVersion, 1);
    assert.equal(init.agentInfo?.name, 'elizacp');
    assert.equal(typeof init.agentInfo?.version, 'string');
    assert.equal(init.agentCapabilities?.loadSession, false);
    assert.deepEqual(init.agentCapabilities?.promptCapabilities, { image: true, embeddedContext: true });
    assert.deepEqual(init.agentCapabilities?.mcpCapabilities, { http: true, sse: false });
  });

  it('creates sessions with modes, a model config option and available commands', async () => {
    const s = await eliza.newSession(dir);
    assert.match(s.sessionId, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    assert.notEqual(s.sessionId, sessionId);
    assert.equal(s.modes?.currentModeId, 'ask');
    assert.deepEqual(
      s.modes?.availableModes.map((m) => m.id),
      ['ask', 'code', 'architect'],
    );
    const model = s.configOptions?.[0];
    assert.equal(model?.category, 'model');
    assert.equal(model?.type === 'select' ? model.currentValue : undefined, 'eliza-classic');
    const commands = ofKind(eliza.sessionUpdates(s.sessionId), 'available_commands_update')[0];
    assert.deepEqual(
      commands?.availableCommands.map((c) => c.name),
      ['help', 'story', 'plan'],
    );
  });

  it('streams the ELIZA reply in several chunks, then ends the turn', async () => {
    const input = 'I am stuck on a bug in my parser';
    const turn = await eliza.prompt(sessionId, input);
    assert.equal(turn.response.stopReason, 'end_turn');
    const chunks = ofKind(turn.updates, 'agent_message_chunk');
    assert.ok(chunks.length >= 3, `only ${chunks.length} chunks`);
    assert.equal(turn.text, respond(input, { deterministic: true }));
    assert.equal(turn.text, 'What makes you think the bug lives in your parser?');
  });

  it('runs prompts of one session sequentially', async () => {
    const s = (await eliza.newSession(dir)).sessionId;
    const [a, b] = await Promise.all([eliza.prompt(s, 'hello'), eliza.prompt(s, 'my tests fail on CI')]);
    assert.equal(a.response.stopReason, 'end_turn');
    assert.equal(b.response.stopReason, 'end_turn');
    const all = messageText(eliza.sessionUpdates(s));
    assert.equal(all, respond('hello', { deterministic: true }) + respond('my tests fail on CI', { deterministic: true }));
  });

  it('switches mode and model; the verbose model changes replies', async () => {
    const s = (await eliza.newSession(dir)).sessionId;
    assert.equal((await eliza.prompt(s, 'what mode')).text, 'Mode: ask. Model: eliza-classic.');
    await eliza.agent.request('session/set_mode', { sessionId: s, modeId: 'code' });
    assert.equal(ofKind(eliza.sessionUpdates(s), 'current_mode_update').at(-1)?.currentModeId, 'code');
    await rejectsWithCode(eliza.agent.request('session/set_mode', { sessionId: s, modeId: 'nope' }), -32602);

    const set = await eliza.agent.request('session/set_config_option', { sessionId: s, configId: 'model', value: 'eliza-verbose' });
    const opt = set.configOptions[0];
    assert.equal(opt?.type === 'select' ? opt.currentValue : undefined, 'eliza-verbose');
    const update = ofKind(eliza.sessionUpdates(s), 'config_option_update').at(-1);
    assert.deepEqual(update?.configOptions, set.configOptions);
    assert.equal((await eliza.prompt(s, 'hello')).text, respond('hello', { deterministic: true, verbose: true }));
    assert.equal((await eliza.prompt(s, 'What mode?')).text, 'Mode: code. Model: eliza-verbose.');

    await eliza.agent.request('session/set_model', { sessionId: s, modelId: 'eliza-classic' });
    assert.equal((await eliza.prompt(s, 'hello')).text, respond('hello', { deterministic: true }));
    assert.equal((await eliza.prompt(s, 'what mode')).text, 'Mode: code. Model: eliza-classic.');
  });

  it('ends turns with the stop reason asked for', async () => {
    for (const [asked, reason] of [
      ['refusal', 'refusal'],
      ['Max Tokens', 'max_tokens'],
      ['max turn requests', 'max_turn_requests'],
    ]) {
      const turn = await eliza.prompt(sessionId, `stop with ${asked}`);
      assert.equal(turn.response.stopReason, reason);
      assert.equal(turn.text, `Stopping with ${reason}.`);
    }
    const unknown = await eliza.prompt(sessionId, 'stop with boredom');
    assert.equal(unknown.response.stopReason, 'end_turn');
    assert.equal(unknown.text, "Unknown stop reason 'boredom'. Known reasons: refusal, max_tokens, max_turn_requests.");
  });

  it('fails a prompt with a JSON-RPC error on request, and keeps working', async () => {
    await rejectsWithCode(eliza.prompt(sessionId, 'fail this prompt'), -32603, 'ElizACP failed this prompt as asked');
    await rejectsWithCode(eliza.prompt(sessionId, 'fail this prompt with Quota exceeded'), -32603, 'Quota exceeded');
    assert.equal((await eliza.prompt(sessionId, 'hello')).text, respond('hello', { deterministic: true }));
  });

  it('cancels the long story promptly with stopReason cancelled', async () => {
    const s = (await eliza.newSession(dir)).sessionId;
    const updates = eliza.sessionUpdates(s);
    const pending = eliza.prompt(s, 'tell me a long story');
    await waitFor(() => ofKind(updates, 'agent_message_chunk').length >= 3, 5000, 'story chunks');
    const cancelledAt = Date.now();
    await eliza.cancel(s);
    const turn = await pending;
    assert.equal(turn.response.stopReason, 'cancelled');
    assert.ok(Date.now() - cancelledAt < 1000, `took ${Date.now() - cancelledAt} ms`);
    const chunks = ofKind(turn.updates, 'agent_message_chunk').length;
    assert.ok(chunks >= 3 && chunks < STORY.length, `${chunks} chunks`);
    assert.ok(STORY.join('').startsWith(turn.text));
    // The session is still usable afterwards.
    assert.equal((await eliza.prompt(s, 'hello')).response.stopReason, 'end_turn');
  });

  it('does not hang on a pending permission request after cancel', async () => {
    const s = (await eliza.newSession(dir)).sessionId;
    eliza.permissionAnswer = 'hang';
    try {
      const before = eliza.permissionRequests.length;
      const pending = eliza.prompt(s, 'request permission for a hanging edit');
      await waitFor(() => eliza.permissionRequests.length > before, 5000, 'permission request');
      const t0 = Date.now();
      await eliza.cancel(s);
      const turn = await pending;
      assert.equal(turn.response.stopReason, 'cancelled');
      assert.ok(Date.now() - t0 < 1000);
      assert.equal(ofKind(turn.updates, 'tool_call_update').at(-1)?.status, 'failed');
    } finally {
      eliza.permissionAnswer = { optionId: 'allow-once' };
    }
  });

  it('requests permission and reports the outcome', async () => {
    eliza.permissionAnswer = { optionId: 'allow-once' };
    const allowed = await eliza.prompt(sessionId, 'request permission for Edit main.rs');
    assert.equal(allowed.text, 'Permission outcome: selected allow-once');
    const req = eliza.permissionRequests.at(-1);
    assert.equal(req?.toolCall.title, 'Edit main.rs');
    assert.equal(req?.toolCall.kind, 'edit');
    assert.equal(req?.toolCall.status, 'pending');
    assert.deepEqual(
      req?.options.map((o) => [o.optionId, o.kind]),
      [
        ['allow-once', 'allow_once'],
        ['allow-always', 'allow_always'],
        ['reject-once', 'reject_once'],
        ['reject-always', 'reject_always'],
      ],
    );
    const call = ofKind(allowed.updates, 'tool_call')[0];
    assert.equal(call?.toolCallId, req?.toolCall.toolCallId);
    assert.equal(call?.status, 'pending');
    // A title that names a file gives rawInput.path and a location on both the card and the request.
    const file = path.join(dir, 'main.rs');
    assert.deepEqual(call?.locations, [{ path: file }]);
    assert.deepEqual(req?.toolCall.locations, [{ path: file }]);
    assert.deepEqual(call?.rawInput, { title: 'Edit main.rs', kind: 'edit', path: file, reason: 'ElizACP test hook: request permission' });
    assert.deepEqual(req?.toolCall.rawInput, call?.rawInput);
    // The final tool_call_update comes after the reply text.
    assert.equal(allowed.updates.at(-1)?.sessionUpdate, 'tool_call_update');
    assert.equal(ofKind(allowed.updates, 'tool_call_update').at(-1)?.status, 'completed');

    eliza.permissionAnswer = { optionId: 'reject-always' };
    const rejected = await eliza.prompt(sessionId, 'request permission');
    assert.equal(rejected.text, 'Permission outcome: selected reject-always');
    assert.equal(ofKind(rejected.updates, 'tool_call_update').at(-1)?.status, 'failed');

    eliza.permissionAnswer = 'cancelled';
    const cancelled = await eliza.prompt(sessionId, 'request permission');
    assert.equal(cancelled.text, 'Permission outcome: cancelled');
    assert.equal(cancelled.response.stopReason, 'end_turn');
    eliza.permissionAnswer = { optionId: 'allow-once' };
  });

  it('requests permission for a given tool kind', async () => {
    const turn = await eliza.prompt(sessionId, 'request permission for Read notes/todo.md kind read');
    assert.equal(turn.text, 'Permission outcome: selected allow-once');
    const call = ofKind(turn.updates, 'tool_call')[0];
    const req = eliza.permissionRequests.at(-1);
    assert.equal(call?.kind, 'read');
    assert.equal(req?.toolCall.kind, 'read');
    assert.equal(req?.toolCall.title, 'Read notes/todo.md');
    assert.deepEqual(call?.locations, [{ path: path.join(dir, 'notes', 'todo.md') }]);
    const execute = await eliza.prompt(sessionId, 'request permission for Run the linter kind EXECUTE');
    const exec = ofKind(execute.updates, 'tool_call')[0];
    assert.equal(exec?.kind, 'execute');
    assert.equal(exec?.title, 'Run the linter');
    assert.equal(exec?.locations, undefined);
    assert.deepEqual(exec?.rawInput, { title: 'Run the linter', kind: 'execute', reason: 'ElizACP test hook: request permission' });
  });

  it('reads files through the client (relative to cwd, with lines/limit, and errors)', async () => {
    const file = path.join(dir, 'a.txt');
    assert.equal((await eliza.prompt(sessionId, 'read file a.txt')).text, `Contents of ${file}:\n\`\`\`\nline1\nline2\nline3\n\n\`\`\``);
    assert.equal((await eliza.prompt(sessionId, `read file ${file} lines 2 1`)).text, `Contents of ${file}:\n\`\`\`\nline2\n\`\`\``);
    // A file with its own code fence is quoted in a longer fence (else its fences would end the block).
    const fenced = path.join(dir, 'fenced.md');
    const ticks = (n: number): string => '`'.repeat(n);
    writeFileSync(fenced, `a\n${ticks(3)}js\nx\n${ticks(3)}\n`);
    const quoted = (await eliza.prompt(sessionId, 'read file fenced.md')).text;
    assert.equal(quoted, `Contents of ${fenced}:\n${ticks(4)}\na\n${ticks(3)}js\nx\n${ticks(3)}\n\n${ticks(4)}`);
    const missing = await eliza.prompt(sessionId, 'read file missing.txt');
    assert.ok(missing.text.startsWith(`Error reading ${path.join(dir, 'missing.txt')}: `), missing.text);
    assert.match(missing.text, /ENOENT/);
  });

  it('writes files through the client', async () => {
    const turn = await eliza.prompt(sessionId, 'write file out/b.txt with hello\nworld');
    const file = path.join(dir, 'out', 'b.txt');
    assert.equal(turn.text, `Wrote ${file}`);
    assert.equal(readFileSync(file, 'utf8'), 'hello\nworld');
  });

  it('changes files on disk by itself (no fs/* request), each shown as a tool call, never outside its folder', async () => {
    const file = path.join(dir, 'disk', 'c.txt');
    const saved = await eliza.prompt(sessionId, 'save file disk/c.txt with one\ntwo');
    assert.equal(saved.text, `Saved ${file} on disk`);
    assert.equal(readFileSync(file, 'utf8'), 'one\ntwo');
    assert.deepEqual(
      saved.updates.flatMap((u) =>
        u.sessionUpdate === 'tool_call' ? [`${u.kind} ${u.title}`] : u.sessionUpdate === 'tool_call_update' ? [u.status] : [],
      ),
      [`edit Save ${file}`, 'completed'],
    );
    assert.equal((await eliza.prompt(sessionId, 'edit file disk/c.txt replacing two with 2')).text, `Edited ${file} on disk`);
    assert.equal(readFileSync(file, 'utf8'), 'one\n2');
    assert.equal((await eliza.prompt(sessionId, 'delete file disk/c.txt')).text, `Deleted ${file} on disk`);
    assert.ok(!existsSync(file));
    const outside = await eliza.prompt(sessionId, 'save file ../escaped.txt with x');
    assert.match(outside.text, /^Error changing .*escaped\.txt: /);
    assert.ok(!existsSync(path.join(dir, '..', 'escaped.txt')));
  });

  it('runs a command in a client terminal', async () => {
    const ok = await eliza.prompt(sessionId, `run command ${process.execPath} -e "console.log('hi from ' + process.cwd())"`);
    assert.equal(ok.text, `Command exited with code 0.\n\`\`\`\nhi from ${dir}\n\n\`\`\``);
    const call = ofKind(ok.updates, 'tool_call')[0];
    assert.equal(call?.kind, 'execute');
    const content = call?.content?.[0];
    assert.equal(content?.type, 'terminal');
    const terminalId = content?.type === 'terminal' ? content.terminalId : '';
    assert.ok(eliza.releasedTerminals.includes(terminalId), 'terminal released');
    assert.equal(ofKind(ok.updates, 'tool_call_update').at(-1)?.status, 'completed');

    const failing = await eliza.prompt(sessionId, `run command ${process.execPath} -e "process.exit(3)"`);
    assert.match(failing.text, /^Command exited with code 3\./);
    assert.equal(ofKind(failing.updates, 'tool_call_update').at(-1)?.status, 'failed');
  });

  it('cancels a running command and releases its terminal', async () => {
    const s = (await eliza.newSession(dir)).sessionId;
    const updates = eliza.sessionUpdates(s);
    const pending = eliza.prompt(s, `run command ${process.execPath} -e "setTimeout(() => {}, 30000)"`);
    await waitFor(() => ofKind(updates, 'tool_call').length > 0, 5000, 'terminal tool call');
    const t0 = Date.now();
    await eliza.cancel(s);
    const turn = await pending;
    assert.equal(turn.response.stopReason, 'cancelled');
    assert.ok(Date.now() - t0 < 1000);
    const call = ofKind(turn.updates, 'tool_call')[0];
    const terminalId = call?.content?.[0]?.type === 'terminal' ? call.content[0].terminalId : '';
    await waitFor(() => eliza.releasedTerminals.includes(terminalId), 3000, 'terminal release');
    assert.equal(ofKind(turn.updates, 'tool_call_update').at(-1)?.status, 'failed');
  });

  it('shows a plan that progresses to completed', async () => {
    const turn = await eliza.prompt(sessionId, 'show plan');
    const plans = ofKind(turn.updates, 'plan');
    assert.equal(plans.length, 1 + 2 * PLAN_STEPS.length);
    assert.deepEqual(
      plans[0]?.entries.map((e) => e.status),
      ['pending', 'pending', 'pending'],
    );
    assert.deepEqual(
      plans[1]?.entries.map((e) => e.status),
      ['in_progress', 'pending', 'pending'],
    );
    assert.deepEqual(
      plans.at(-1)?.entries.map((e) => e.status),
      ['completed', 'completed', 'completed'],
    );
    assert.deepEqual(
      plans[0]?.entries.map((e) => e.content),
      PLAN_STEPS.map(([c]) => c),
    );
    assert.equal(turn.text, PLAN_REPLY);
    assert.equal((await eliza.prompt(sessionId, '/plan')).text, PLAN_REPLY);
  });

  it('streams thoughts, then replies', async () => {
    const turn = await eliza.prompt(sessionId, 'think about flaky tests');
    const thought = ofKind(turn.updates, 'agent_thought_chunk').map((u) => (u.content.type === 'text' ? u.content.text : ''));
    assert.deepEqual(thought, thoughts('flaky tests'));
    assert.equal(turn.text, respond('flaky tests', { deterministic: true }));
  });

  it('demos a tool call with a diff', async () => {
    const turn = await eliza.prompt(sessionId, 'demo tool call');
    const file = path.join(dir, 'src', 'eliza-demo.ts');
    const call = ofKind(turn.updates, 'tool_call')[0];
    assert.equal(call?.kind, 'edit');
    assert.equal(call?.status, 'pending');
    assert.deepEqual(call?.locations, [{ path: file, line: 3 }]);
    const ups = ofKind(turn.updates, 'tool_call_update');
    assert.deepEqual(
      ups.map((u) => u.status),
      ['in_progress', 'completed'],
    );
    assert.equal(ups[0]?.content, undefined);
    assert.deepEqual(ups[1]?.content?.[0], { type: 'diff', path: file, oldText: DEMO_OLD_TEXT, newText: DEMO_NEW_TEXT });
    assert.equal(ups[1]?.content?.[1]?.type, 'content');
    assert.match(turn.text, /pretended to edit/);
  });

  it('demos a read tool call with text content', async () => {
    const turn = await eliza.prompt(sessionId, 'demo read tool');
    const file = path.join(dir, 'README.md');
    const call = ofKind(turn.updates, 'tool_call')[0];
    assert.deepEqual(
      {
        kind: call?.kind,
        status: call?.status,
        title: call?.title,
        locations: call?.locations,
        rawInput: call?.rawInput,
        content: call?.content,
      },
      {
        kind: 'read',
        status: 'pending',
        title: `Read ${file}`,
        locations: [{ path: file, line: 1 }],
        rawInput: { path: file },
        content: undefined,
      },
    );
    const ups = ofKind(turn.updates, 'tool_call_update');
    assert.deepEqual(ups[0], { sessionUpdate: 'tool_call_update', toolCallId: call?.toolCallId, status: 'in_progress' });
    assert.equal(ups[1]?.status, 'completed');
    assert.deepEqual(ups[1]?.content, [{ type: 'content', content: { type: 'text', text: '# Title\nSome text' } }]);
    assert.deepEqual(ups[1]?.rawOutput, { path: file, content: READ_DEMO_TEXT });
    assert.equal(ups.length, 2);
    assert.equal(turn.text, 'Read done.');
  });

  it('streams exactly N chunks for "stream N chunks"', async () => {
    const turn = await eliza.prompt(sessionId, 'stream 2000 chunks');
    const chunks = ofKind(turn.updates, 'agent_message_chunk');
    assert.equal(chunks.length, 2000);
    assert.deepEqual(chunks[0]?.content, { type: 'text', text: 'chunk 1 ' });
    assert.deepEqual(chunks[1999]?.content, { type: 'text', text: 'chunk 2000 ' });
  });

  it('echoes _meta exactly and lists attachments', async () => {
    const meta = {
      traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
      'symposium.dev': { nested: [1, { deep: true }], n: null },
    };
    assert.deepEqual(JSON.parse((await eliza.prompt(sessionId, 'echo meta', meta)).text), meta);
    const attach = await eliza.prompt(sessionId, [
      { type: 'text', text: 'what did i attach' },
      { type: 'resource_link', uri: 'file:///x/a.ts', name: 'a.ts' },
      { type: 'resource', resource: { uri: 'file:///x/b.md', text: 'hi', mimeType: 'text/markdown' } },
    ]);
    assert.equal(attach.text, 'You attached 2 items:\n- resource_link file:///x/a.ts (a.ts)\n- resource file:///x/b.md');
  });

  it('answers help and slash commands', async () => {
    const help = (await eliza.prompt(sessionId, '/help')).text;
    for (const hook of ['tell me a long story', 'demo read tool', 'kind <read', 'what mode', 'stop with', 'fail this prompt'])
      assert.ok(help.includes(hook), hook);
  });

  it('round-trips extension methods with raw params, and rejects unknown methods', async () => {
    const params = { a: { b: [1, { c: null }] }, unknownField: { deeper: { x: 'y' } }, _meta: { k: 'v' } };
    assert.deepEqual(await eliza.agent.request('_eliza/echo', params), { echoed: params });
    await eliza.agent.notify('_eliza/ping', { seq: 7, extra: { z: [true] } });
    await waitFor(() => eliza.pongs.length > 0, 3000, 'pong');
    assert.deepEqual(eliza.pongs[0], { seq: 7, extra: { z: [true] } });
    await rejectsWithCode(eliza.agent.request('_eliza/nope', {}), -32601);
  });

  it('survives printing garbage to stdout', async () => {
    const turn = await eliza.prompt(sessionId, 'print garbage');
    assert.equal(turn.text, 'I printed a line of garbage to stdout.');
    assert.equal((await eliza.prompt(sessionId, 'hello')).text, respond('hello', { deterministic: true }));
  });

  it('closes sessions', async () => {
    const s = (await eliza.newSession(dir)).sessionId;
    await eliza.agent.request('session/close', { sessionId: s });
    await rejectsWithCode(eliza.prompt(s, 'hello'), -32002);
  });
});

describe('ElizACP process lifecycle', function () {
  this.timeout(20000);

  it('advertises http:false with --no-http-mcp and exits cleanly on stdin EOF', async () => {
    const eliza = await ElizaHarness.start(['--deterministic', '--no-http-mcp']);
    assert.deepEqual(eliza.initializeResponse.agentCapabilities?.mcpCapabilities, { http: false, sse: false });
    const { code } = await eliza.close();
    assert.equal(code, 0);
  });

  it('offers the legacy models picker with --legacy-models', async () => {
    const eliza = await ElizaHarness.start(['--deterministic', '--legacy-models']);
    const s = (await eliza.newSession(tmpdir())) as acp.NewSessionResponse & { models?: unknown };
    assert.deepEqual(s.models, {
      currentModelId: 'eliza-classic',
      availableModels: [
        { modelId: 'eliza-classic', name: 'ELIZA classic' },
        { modelId: 'eliza-verbose', name: 'ELIZA verbose' },
      ],
    });
    assert.equal(s.configOptions, undefined);
    await rejectsWithCode(
      eliza.agent.request('session/set_config_option', { sessionId: s.sessionId, configId: 'model', value: 'eliza-verbose' }),
      -32602,
    );
    assert.deepEqual(await eliza.agent.request('session/set_model', { sessionId: s.sessionId, modelId: 'eliza-verbose' }), {});
    assert.equal((await eliza.prompt(s.sessionId, 'what mode')).text, 'Mode: ask. Model: eliza-verbose.');
    assert.equal((await eliza.prompt(s.sessionId, 'hello')).text, respond('hello', { deterministic: true, verbose: true }));
    await eliza.close();
  });

  it('crashes with the requested exit code', async () => {
    const eliza = await ElizaHarness.start(['--deterministic']);
    const { sessionId } = await eliza.newSession(tmpdir());
    const prompt = eliza.prompt(sessionId, 'crash with code 7');
    prompt.catch(() => undefined);
    const { code } = await eliza.exited;
    assert.equal(code, 7);
    assert.match(eliza.stderr, /eliza: crashing as asked/);
    await assert.rejects(prompt);
    await eliza.close();
  });
});
