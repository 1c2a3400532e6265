// The experimental LM provider in a real VS Code (code-server): this test code runs in the
// extension host as a consumer of `vscode.lm`, outside Symposium's own code, the way another
// extension would. Off: nothing registered, nothing spawned. On: ElizACP as a model, a plain
// prompt, a follow-up on the same ACP session, an edited history on a new one, three tools (two
// called in one turn, one in the next), and the symposium-agent-action approve / reject paths.
// A second extension (test-fixtures/extensions/lm-consumer) converses with its own tools; token limits and
// the model list follow the settings; a killed LM process is replaced. Also measures time to first
// part and parts per second (test-results/bench/lm.json).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { expectedReply, extension, newTab, openChat, waitFor } from '../helpers';

const M = vscode.LanguageModelChatMessage;
type Part = vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart;

async function collect(
  model: vscode.LanguageModelChat,
  messages: vscode.LanguageModelChatMessage[],
  tools: vscode.LanguageModelChatTool[] = [],
) {
  const r = await model.sendRequest(messages, { tools });
  const parts: Part[] = [];
  for await (const p of r.stream)
    if (p instanceof vscode.LanguageModelTextPart || p instanceof vscode.LanguageModelToolCallPart) parts.push(p);
  const text = parts.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
  const calls = parts.filter((p): p is vscode.LanguageModelToolCallPart => p instanceof vscode.LanguageModelToolCallPart);
  return { parts, text, calls };
}

const asAssistant = (parts: Part[]) => M.Assistant(parts);

const TOOLS: vscode.LanguageModelChatTool[] = ['alpha', 'beta', 'gamma'].map((name) => ({
  name,
  description: `the ${name} tool`,
  inputSchema: { type: 'object', properties: { n: { type: 'number' } } },
}));

suite('language model provider (experimental)', () => {
  const config = () => vscode.workspace.getConfiguration('symposium');
  let model: vscode.LanguageModelChat;

  test('off: no symposium model and no process', async () => {
    const api = await extension().activate();
    assert.equal(api.lm.registered, false);
    assert.equal((await vscode.lm.selectChatModels({ vendor: 'symposium' })).length, 0);
    assert.equal(api.lm.processRunning, false);
  });

  test('on: ElizACP is a model of vendor symposium', async () => {
    await config().update('enableExperimentalLM', true, vscode.ConfigurationTarget.Global);
    const api = await extension().activate();
    await waitFor('the provider to register', () => api.lm.registered);
    await waitFor('the ElizACP model', async () =>
      (await vscode.lm.selectChatModels({ vendor: 'symposium' })).some((m) => m.id.includes('eliza')),
    );
    model = (await vscode.lm.selectChatModels({ vendor: 'symposium' })).find((m) => m.id.includes('eliza'))!;
    assert.equal(model.name, 'Symposium: ElizACP');
    assert.ok((await model.countTokens('twelve chars')) === 3);
  });

  test('a plain prompt streams ElizACP’s deterministic reply; bench: first part and parts per second', async () => {
    const start = Date.now();
    const r = await model.sendRequest([M.User('I feel happy today')], {});
    let first = 0;
    let count = 0;
    let text = '';
    for await (const p of r.stream) {
      if (!(p instanceof vscode.LanguageModelTextPart)) continue;
      if (!first) first = Date.now() - start;
      count++;
      text += p.value;
    }
    assert.equal(text, expectedReply('I feel happy today'));
    const s0 = Date.now();
    const big = await model.sendRequest([M.User('stream 2000 chunks')], {});
    let n = 0;
    for await (const p of big.stream) if (p instanceof vscode.LanguageModelTextPart) n++;
    const perSecond = Math.round(n / ((Date.now() - s0) / 1000));
    // A subfolder: every test-results/*.json is read as a stage's pass/fail record.
    const dir = path.resolve(__dirname, '../../../test-results/bench');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(
      path.join(dir, 'lm.json'),
      JSON.stringify({ timeToFirstPartMs: first, firstReplyParts: count, streamParts: n, partsPerSecond: perSecond }, null, 2),
    );
    assert.ok(n >= 2000, `all chunks arrived (${n})`);
  });

  test('a follow-up reuses the ACP session; an edited history gets a new one', async () => {
    const a1 = await collect(model, [M.User('session info')]);
    const m1 = /^Session (\S+), prompt (\d+)\.$/.exec(a1.text);
    assert.ok(m1, a1.text);
    const a2 = await collect(model, [M.User('session info'), asAssistant(a1.parts), M.User('session info')]);
    assert.equal(a2.text, `Session ${m1[1]}, prompt ${Number(m1[2]) + 1}.`);
    const a3 = await collect(model, [M.User('session info'), M.Assistant('something else'), M.User('session info')]);
    const m3 = /^Session (\S+), prompt (\d+)\.$/.exec(a3.text);
    assert.ok(m3 && m3[1] !== m1[1], a3.text);
  });

  test('three tools: the agent calls two in one turn and one in the next', async () => {
    const h = [M.User('use tools\nvscode_tools::alpha with {"n":1}\nvscode_tools::beta with {"n":2}')];
    const r1 = await collect(model, h, TOOLS);
    assert.deepEqual(r1.calls.map((c) => c.name).sort(), ['alpha', 'beta']);
    h.push(
      asAssistant(r1.parts),
      M.User(r1.calls.map((c) => new vscode.LanguageModelToolResultPart(c.callId, [new vscode.LanguageModelTextPart(`${c.name} ok`)]))),
    );
    const r2 = await collect(model, h, TOOLS);
    assert.match(r2.text, /alpha: alpha ok/);
    assert.match(r2.text, /beta: beta ok/);
    h.push(asAssistant(r2.parts), M.User('use tool vscode_tools::gamma with {"n":3}'));
    const r3 = await collect(model, h, TOOLS);
    assert.deepEqual(
      r3.calls.map((c) => [c.name, c.input]),
      [['gamma', { n: 3 }]],
    );
    h.push(
      asAssistant(r3.parts),
      M.User([new vscode.LanguageModelToolResultPart(r3.calls[0]!.callId, [new vscode.LanguageModelTextPart('gamma ok')])]),
    );
    assert.match((await collect(model, h, TOOLS)).text, /gamma ok/);
  });

  test('symposium-agent-action: approved through lm.invokeTool, and rejected', async () => {
    for (const approve of [true, false]) {
      const h = [M.User(`request permission for ${approve ? 'approving' : 'rejecting'} this`)];
      const r1 = await collect(model, h);
      const [call] = r1.calls;
      assert.equal(call?.name, 'symposium-agent-action');
      const result = approve
        ? await vscode.lm.invokeTool(call.name, { input: call.input, toolInvocationToken: undefined })
        : new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart('rejected')]);
      h.push(
        asAssistant(r1.parts),
        M.User([new vscode.LanguageModelToolResultPart(call.callId, result.content as vscode.LanguageModelTextPart[])]),
      );
      const r2 = await collect(model, h);
      assert.match(r2.text, approve ? /selected allow/ : /selected reject/);
    }
  });

  test('another extension picks the model and runs its own tool loop over several turns on one ACP session', async () => {
    // test-fixtures/extensions/lm-consumer: loaded beside Symposium, it knows only the vendor name.
    const consumer = vscode.extensions.getExtension('symposium-tests.symposium-lm-consumer');
    assert.ok(consumer, 'the consumer extension is loaded');
    type Round = { text: string; calls: { name: string; input: unknown }[] };
    const run = (prompts: string[], resultOrder: 'as-called' | 'reversed') =>
      vscode.commands.executeCommand<{ model: string; rounds: Round[] }>('symposiumLmConsumer.converse', {
        vendor: 'symposium',
        modelIdIncludes: 'eliza',
        prompts,
        resultOrder,
      });
    const { model: id, rounds } = await run(
      [
        'session info',
        'use tools\nvscode_tools::consumer_alpha with {"n":1}\nvscode_tools::consumer_beta with {"n":2}',
        'use tool vscode_tools::consumer_gamma with {"n":3}',
        'session info',
      ],
      'reversed', // results in the other order than the calls: matched by call id, not by position
    );
    assert.equal(id, 'symposium-eliza');
    const texts = rounds.map((r) => r.text);
    const first = /^Session (\S+), prompt (\d+)\.$/.exec(texts[0] ?? '');
    assert.ok(first, texts[0]);
    // Round 1: session info; 2: two calls; 3: their results answered; 4: one call; 5: answered; 6: session info.
    assert.equal(rounds.length, 6, JSON.stringify(rounds));
    assert.deepEqual(
      rounds[1]!.calls.map((c) => [c.name, c.input]),
      [
        ['consumer_alpha', { n: 1 }],
        ['consumer_beta', { n: 2 }],
      ],
    );
    assert.match(texts[2]!, /consumer_alpha ran with \{"n":1\}/);
    assert.match(texts[2]!, /consumer_beta ran with \{"n":2\}/);
    assert.deepEqual(
      rounds[3]!.calls.map((c) => [c.name, c.input]),
      [['consumer_gamma', { n: 3 }]],
    );
    assert.match(texts[4]!, /consumer_gamma ran with \{"n":3\}/);
    assert.equal(texts[5], `Session ${first[1]}, prompt ${Number(first[2]) + 3}.`, 'every turn went to the same ACP session');
  });

  test('token limits come from symposium.lm.* settings', async () => {
    const eliza = async () => (await vscode.lm.selectChatModels({ vendor: 'symposium' })).find((m) => m.id.includes('eliza'));
    assert.equal((await eliza())?.maxInputTokens, 200_000, 'the default');
    await config().update('lm.maxInputTokens', 12_345, vscode.ConfigurationTarget.Global);
    try {
      await waitFor('the new limit', async () => (await eliza())?.maxInputTokens === 12_345);
    } finally {
      await config().update('lm.maxInputTokens', undefined, vscode.ConfigurationTarget.Global);
    }
    await waitFor('the default again', async () => (await eliza())?.maxInputTokens === 200_000);
  });

  test('an agent added to symposium.agents becomes a model at once; removed, it goes', async () => {
    const ids = async () => (await vscode.lm.selectChatModels({ vendor: 'symposium' })).map((m) => m.id);
    await config().update('agents', { extra: { command: process.execPath, args: ['--version'] } }, vscode.ConfigurationTarget.Global);
    try {
      await waitFor('the extra model', async () => (await ids()).includes('symposium-agent-extra'));
      const extra = (await vscode.lm.selectChatModels({ vendor: 'symposium' })).find((m) => m.id === 'symposium-agent-extra');
      assert.equal(extra?.name, 'Symposium: extra');
    } finally {
      await config().update('agents', undefined, vscode.ConfigurationTarget.Global);
    }
    await waitFor('the extra model gone', async () => !(await ids()).includes('symposium-agent-extra'));
    assert.ok((await ids()).includes('symposium-eliza'));
  });

  test("another agent's image input is announced once it has run in the chat (its promptCapabilities)", async function () {
    this.timeout(60_000);
    const api = await extension().activate();
    const ext = extension();
    const images = () => api.lm.models.find((m) => m.id === 'symposium-agent-Eliza images')?.capabilities.imageInput;
    await config().update(
      'agents',
      {
        'Eliza images': {
          command: process.execPath,
          args: [`${ext.extensionPath}/out/conductor.js`, 'eliza', '--deterministic'],
          env: { ELECTRON_RUN_AS_NODE: '1' },
        },
      },
      vscode.ConfigurationTarget.Global,
    );
    try {
      await waitFor('the model', () => images() !== undefined);
      assert.equal(images(), false, 'not known before the agent ran');
      await config().update('currentAgent', 'Eliza images', vscode.ConfigurationTarget.Global);
      await openChat();
      await newTab();
      await waitFor('image input announced', () => images() === true, 30_000);
    } finally {
      await config().update('currentAgent', undefined, vscode.ConfigurationTarget.Global);
      await config().update('agents', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  test('the LM process killed mid-stream: that request fails with the exit reason, the next one gets a new process', async () => {
    const api = await extension().activate();
    // The story streams one fragment per 100 ms, so the kill lands while most of it is still to
    // come. (A fast stream could be fully delivered before the signal, and then nothing fails.)
    const r = await model.sendRequest([M.User('tell me a long story')], {});
    let failure: unknown;
    let parts = 0;
    const pid = api.lm.processPid;
    assert.ok(pid, 'the process runs');
    try {
      for await (const p of r.stream) {
        if (p instanceof vscode.LanguageModelTextPart && ++parts === 3) process.kill(pid, 'SIGKILL');
      }
    } catch (e) {
      failure = e;
    }
    assert.match(String(failure), /Symposium LM process exited \(SIGKILL\)/, `after ${parts} parts`);
    assert.ok(parts < 10, `the stream stopped (${parts} parts)`);
    const again = await collect(model, [M.User('I feel happy today')]);
    assert.equal(again.text, expectedReply('I feel happy today'));
    assert.notEqual(api.lm.processPid, pid, 'a new process');
  });

  test('off again: unregistered and the process stopped', async () => {
    await config().update('enableExperimentalLM', undefined, vscode.ConfigurationTarget.Global);
    const api = await extension().activate();
    await waitFor('the provider to unregister', () => !api.lm.registered);
    assert.equal(api.lm.processRunning, false);
    await waitFor('no symposium model', async () => (await vscode.lm.selectChatModels({ vendor: 'symposium' })).length === 0);
  });
});
