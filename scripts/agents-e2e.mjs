// The real chat (code-server + chromium) with the agents people run — Claude Code (both ACP
// adapters), Codex, Gemini CLI and OpenCode — offline, against the scripted model server
// (conductor/test/realAgents/chatE2eModel.ts, a child process). Run through
// scripts/vscode-host-run.sh like webview-e2e.mjs. Each agent is configured as a user would: an
// entry of `symposium.agents` in the user settings (command and env from agentLaunch), chosen with
// `symposium.currentAgent`. Then, for each agent in turn, in a chat tab of its own, as a user:
// a plain prompt streams the scripted answer; a file read quotes the file; `echo hi-from-shell`
// asks once and its card shows the output; a write asks, Allow writes the file; a refused write
// leaves no file and the agent is told; an edit of an existing file shows its diff; the mode picker
// lists the agent's own modes; Stop cancels a long answer; closing the tab leaves no agent process.
// Writes test-results/e2e-agents.json and screenshots test-results/e2e-agents-*.png. AGENTS_E2E=<id,…>
// runs some of the agents only.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import {
  openWorkbench,
  writeResults,
  RESULTS_DIR,
  ROOT,
  sleep,
  requiredEnv,
  newResults,
  runProcesses,
  describeProcesses,
} from './browser.mjs';
import { answersOf, chatHistoryButton, inputOf, openChat, selectedTab, stepsInto, until, waitForText, wrapperOf } from './chatPage.mjs';
import {
  AGENTS,
  addTab,
  agentToolReport,
  approvalCards,
  chooseAgentInPalette,
  choosePickerOption,
  openDetails,
  pickedOptions,
  pickers,
  runCommand,
  saveProtocolTrace,
  waitForMatch,
  waitingApprovals,
} from './agentsPage.mjs';

const runDir = requiredEnv('VSCODE_HOST_RUN_DIR');
if (!runDir) throw new Error('run me through scripts/vscode-host-run.sh');
const ws = path.join(runDir, 'ws');
fs.writeFileSync(path.join(ws, 'notes.txt'), 'the secret word is pelican\n');
fs.mkdirSync(RESULTS_DIR, { recursive: true });
const wanted = (process.env.AGENTS_E2E ?? '').split(',').filter(Boolean);
const agents = AGENTS.filter((a) => !wanted.length || wanted.includes(a.id));

// The scripted model server, with the agents' launches (their env names its URL).
const model = spawn(process.execPath, ['--import', 'tsx', 'conductor/test/realAgents/chatE2eModel.ts', ws], {
  cwd: ROOT,
  stdio: ['pipe', 'pipe', 'pipe'],
});
const modelLog = fs.createWriteStream(path.join(RESULTS_DIR, 'e2e-agents-model.log'));
model.stderr.pipe(modelLog);
const served = await new Promise((resolve, reject) => {
  readline.createInterface({ input: model.stdout }).once('line', (l) => resolve(JSON.parse(l)));
  model.once('exit', (code) => reject(new Error(`the scripted model server exited (${code})`)));
});
const { hello, story } = served.texts;
const storyLast = story.split('. ').at(-1);

// The agents as a user configures them: `symposium.agents` is a machine setting, which a remote
// window (code-server is one) reads from the Remote settings, `<user data>/Machine/settings.json`;
// the agent new chats use is `symposium.currentAgent` in the user settings (vscode-host-run.sh wrote them).
const machineSettings = path.join(runDir, 'ud', 'Machine', 'settings.json');
fs.mkdirSync(path.dirname(machineSettings), { recursive: true });
const agentEntries = Object.fromEntries(
  agents.map((a) => {
    const [command, ...args] = served.agents[a.id].command;
    return [a.name, { command, args, env: served.agents[a.id].env }];
  }),
);
fs.writeFileSync(machineSettings, JSON.stringify({ 'symposium.agents': agentEntries }, null, 2));
const settingsFile = path.join(runDir, 'ud', 'User', 'settings.json');
const baseSettings = JSON.parse(fs.readFileSync(settingsFile, 'utf8'));
const chooseAgent = (name) => fs.writeFileSync(settingsFile, JSON.stringify({ ...baseSettings, 'symposium.currentAgent': name }, null, 2));
chooseAgent(agents[0]?.name ?? '');

const results = newResults();
const { ctx, page } = await openWorkbench({ log: false });
page.setDefaultTimeout(20_000);
const shot = (name) => page.screenshot({ path: path.join(RESULTS_DIR, `e2e-agents-${name}.png`) });
const step = stepsInto(results, async () => {
  await shot(`${current?.id ?? 'run'}-failure`);
  // What the agent and the chat said to each other, for the failure's reader.
  const trace = current && (await saveProtocolTrace(page, ws, `${current.name}`).catch(() => undefined));
  if (trace) fs.renameSync(trace, path.join(RESULTS_DIR, `e2e-agents-${current.id}-trace.jsonl`));
  await page.keyboard.press('Escape');
});
/** Each agent × feature outcome, for docs/agents.md's compatibility table (scripts/agent-compat-table.mjs). */
const compat = {};
let current;
async function featureStep(feature, title, fn) {
  const row = (compat[current.id] ??= {});
  try {
    await step(title, fn);
    row[feature] = 'passed';
  } catch (e) {
    row[feature] = 'failed';
    throw e;
  }
}
const occurrences = (hay, needle) => hay.split(needle).length - 1;

let f;
const codeword = 'zebra-42';
const minuteOf = (ms) => new Date(ms).toISOString().slice(0, 16);
async function send(mid, text) {
  // As a user's hand leaves the pickers: a picker's tooltip (shown on hover) would lie over the input.
  await page.mouse.move(0, 0);
  await inputOf(f, mid).click();
  await page.keyboard.type(text);
  await page.keyboard.press('Enter');
}
/** Waits for the tab's approval card and clicks its button whose label matches `label`. */
async function answerApproval(mid, label) {
  const card = waitingApprovals(f, mid).first();
  await card.waitFor({ timeout: 60_000 });
  await card.locator('button', { hasText: label }).first().click();
}

async function runAgent(agent, first) {
  const L = agent.name;
  current = agent;
  let mid;
  const how = first ? 'chosen in the user settings (symposium.currentAgent)' : 'chosen with Choose Agent…';
  await featureStep('configured as a user would, a chat tab talks to it', `${L}: ${how}, a new chat tab talks to it`, async () => {
    if (first) {
      f = await openChat(page);
      mid = await selectedTab(f);
    } else {
      await chooseAgentInPalette(page, agent.name, shot);
      await waitForText(page.locator('.part.sidebar .title-label, .part.sidebar .pane-header .title'), `Chat · ${agent.name}`, 30_000);
      mid = await addTab(f);
    }
    await inputOf(f, mid).waitFor();
    await waitForText(page.locator('.statusbar-item', { hasText: `${agent.name}:` }).first(), `${agent.name}: ready`, 90_000);
  });

  await featureStep('a plain prompt streams the answer', `${L}: a plain prompt streams the scripted answer`, async () => {
    await send(mid, 'say hello');
    const text = await waitForText(answersOf(f, mid), hello, 90_000);
    if (occurrences(text, hello) !== 1) throw new Error('the answer is shown more than once');
    await shot(`${agent.id}-hello`);
  });

  await featureStep('the mode picker lists its own modes', `${L}: the mode picker lists the agent's own modes`, async () => {
    const all = await pickers(f, mid);
    console.log(`    pickers: ${JSON.stringify(all)}`);
    if (!all.some((options) => agent.modes.every((m) => options.includes(m))))
      throw new Error(`no picker lists ${JSON.stringify(agent.modes)}: ${JSON.stringify(all)}`);
  });

  await featureStep('reads a file; the answer quotes it', `${L}: a file read; the answer quotes the file`, async () => {
    await send(mid, 'please read the notes');
    await waitForMatch(answersOf(f, mid), /The file says:[\s\S]*the secret word is pelican/);
    await shot(`${agent.id}-read`);
  });

  for (const mode of agent.writeMode ? [agent.writeMode] : [])
    await featureStep('the mode picker switches its mode', `${L}: the mode picker switches the agent to ${mode}`, async () => {
      // (Codex starts read-only in a folder it does not know.)
      await choosePickerOption(f, mid, mode);
    });

  const asking = agent.asks.run ? 'asks once; Allow runs it' : "runs without asking (the agent's own policy)";
  const outputShown = agent.outputInCard ? 'its card shows the output and ends as Completed' : 'the answer quotes the output';
  await featureStep(
    'runs a command (asking if its mode asks), output shown',
    `${L}: "run echo hi-from-shell" ${asking}, and ${outputShown}`,
    async () => {
      const before = await approvalCards(f, mid).count();
      await send(mid, 'please run echo hi-from-shell');
      if (agent.asks.run) {
        await waitingApprovals(f, mid).first().waitFor({ timeout: 60_000 });
        await shot(`${agent.id}-shell-approval`);
        await answerApproval(mid, agent.allow);
      }
      await waitForMatch(answersOf(f, mid), /The command printed:[\s\S]*hi-from-shell/);
      const asked = (await approvalCards(f, mid).count()) - before;
      if (asked !== (agent.asks.run ? 1 : 0)) throw new Error(`the user was asked ${asked} times`);
      if (agent.outputInCard) {
        // Once the turn is over: a card the agent still updates is drawn again, folded.
        await until(
          'the turn to end',
          async () => !(await wrapperOf(f, mid).locator('.mynah-chat-prompt-stop-button').isVisible()),
          30_000,
        );
        const card = await openDetails(f, mid, 'echo hi-from-shell');
        // The output itself: a line of its own (Qwen Code: "Output: …"), or the raw output's stdout (Codex
        // reports its output sometimes as content, sometimes only as raw output); the command's own text
        // also holds the words.
        const shown = /(^|\n)(Output: )?hi-from-shell(\n|$)|"stdout": "hi-from-shell\\n"/;
        // Codex reports the command's end after the turn, sometimes many seconds after it.
        const reported = await until('the output in the card', async () => shown.test(await card.innerText()), 30_000).then(
          () => 'output',
          async (e) => {
            const text = await card.innerText();
            // The chat can show only what the agent reports. Codex now and then reports a quick
            // command's output to nobody but its model: no output delta, and an end whose stdout and
            // aggregated output are empty, or no end at all (codex-acp#290). Its trace tells that apart
            // from output the chat lost; the card must then show what it was given: the empty report
            // and Completed, or, with no end reported, "Turn ended" and never Stopped.
            const trace = await saveProtocolTrace(page, ws, L).catch(() => undefined);
            await page.keyboard.press('Escape');
            const report = trace ? agentToolReport(trace, 'echo hi-from-shell', 'hi-from-shell') : undefined;
            const showsWhatItGot = report?.ended ? /"stdout": ""/.test(text) : /\bTurn ended\b/.test(text);
            if (trace && report && !report.output && showsWhatItGot) {
              const kept = path.join(RESULTS_DIR, `e2e-agents-${agent.id}-unreported-output-trace.jsonl`);
              fs.renameSync(trace, kept);
              const what = report.ended ? 'an end with empty output' : 'no end';
              console.log(`    ! ${L} reported no output for echo (${what}: ${path.basename(kept)}); the card shows what it was given`);
              return report.ended ? 'empty output' : 'no end';
            }
            if (trace) fs.rmSync(trace, { force: true });
            const said = report
              ? ` (the agent reported ${report.output ? 'the output' : 'no output'}, ${report.ended ? 'an end' : 'no end'})`
              : '';
            throw new Error(`${e.message}${said}: ${JSON.stringify(text.slice(-500))}`);
          },
        );
        // The agent ended its turn itself: the call was never stopped, and its card ends as completed
        // (until the agent says so, "Turn ended").
        if (reported !== 'no end')
          await until('the card to say Completed', async () => /\bCompleted\b/.test(await card.innerText()), 30_000).catch(async (e) => {
            throw new Error(`${e.message}: ${JSON.stringify((await card.innerText()).slice(0, 300))}`);
          });
        if (/\bStopped\b/.test(await card.innerText())) throw new Error('a call of a turn the agent ended is shown as stopped');
      }
      await shot(`${agent.id}-shell-output`);
    },
  );

  const written = path.join(ws, `${agent.id}-greeting.txt`);
  await featureStep(
    'writes a new file (approval card if it asks)',
    `${L}: writing a new file ${agent.asks.write ? 'asks; Allow writes it' : 'writes it'}`,
    async () => {
      await send(mid, `now write the greeting file for ${agent.id}`);
      if (agent.asks.write) {
        await waitingApprovals(f, mid).first().waitFor({ timeout: 60_000 });
        await shot(`${agent.id}-write-approval`);
        await answerApproval(mid, agent.allow);
      }
      await waitForText(answersOf(f, mid), 'Wrote it.', 60_000);
      if (fs.readFileSync(written, 'utf8') !== 'hello-from-the-agent') throw new Error('the file does not hold what the agent wrote');
      await shot(`${agent.id}-write-done`);
    },
  );

  const diffShown = agent.diffCard ? ', and its card shows the diff' : '';
  await featureStep(
    'edits an existing file',
    `${L}: editing an existing file ${agent.asks.write ? 'asks; Allow edits it' : 'edits it'}${diffShown}`,
    async () => {
      await send(mid, `now edit the notes for ${agent.id}`);
      if (agent.asks.write) await answerApproval(mid, agent.allow);
      await waitForText(answersOf(f, mid), 'Edited it.', 60_000);
      const notes = fs.readFileSync(path.join(ws, 'notes.txt'), 'utf8');
      if (!notes.includes(`pelican-edited-by-${agent.id}`)) throw new Error(`notes.txt was not edited: ${notes}`);
      if (agent.diffCard)
        await wrapperOf(f, mid).locator('button', { hasText: 'Open diff: notes.txt' }).last().waitFor({ timeout: 10_000 });
      await shot(`${agent.id}-edited`);
    },
  );

  if (agent.writesThroughEditor)
    await featureStep(
      'symposium.reviewAgentEdits: its write waits in the diff view',
      `${L}: with symposium.reviewAgentEdits on, its write waits in VS Code's diff view; Accept writes it`,
      async () => {
        // A machine setting, like the agents: a remote window reads it from the Remote settings.
        const review = (on) =>
          fs.writeFileSync(
            machineSettings,
            JSON.stringify({ ...JSON.parse(fs.readFileSync(machineSettings, 'utf8')), 'symposium.reviewAgentEdits': on }, null, 2),
          );
        review(true);
        const reviewed = path.join(ws, `${agent.id}-reviewed.txt`);
        try {
          await send(mid, `now write the reviewed file for ${agent.id}`);
          if (agent.asks.write) await answerApproval(mid, agent.allow);
          const diffTab = page.locator('.tabs-container .tab', { hasText: `${agent.id}-reviewed.txt` }).first();
          await diffTab.waitFor({ timeout: 60_000 });
          if (fs.existsSync(reviewed)) throw new Error('the file was written before the review was answered');
          await shot(`${agent.id}-review`);
          await runCommand(page, 'Symposium: Accept Agent Edit');
          await until('the accepted write', async () => fs.existsSync(reviewed), 30_000);
          await until(
            'the turn to end',
            async () => !(await wrapperOf(f, mid).locator('.mynah-chat-prompt-stop-button').isVisible()),
            60_000,
          );
          if (fs.readFileSync(reviewed, 'utf8') !== 'reviewed-content')
            throw new Error('the accepted file does not hold what the agent wrote');
        } finally {
          review(false);
        }
      },
    );

  await featureStep('Stop cancels a long answer', `${L}: Stop cancels a long streamed answer`, async () => {
    await send(mid, 'tell me a long story');
    await waitForText(answersOf(f, mid), 'Story sentence number 3 ', 60_000);
    await wrapperOf(f, mid).locator('.mynah-chat-prompt-stop-button').click();
    await until('the turn to end', async () => !(await wrapperOf(f, mid).locator('.mynah-chat-prompt-stop-button').isVisible()), 20_000);
    await sleep(2_000); // what a Stop that did not stop would stream meanwhile
    const text = (await answersOf(f, mid).allInnerTexts()).join('\n');
    if (text.includes(storyLast)) throw new Error('the story was not stopped');
    await shot(`${agent.id}-stopped`);
  });

  await featureStep(
    'after a window reload the conversation continues (resume or load)',
    `${L}: after a window reload, the conversation reopened from the History continues (${agent.reopens})`,
    async () => {
      // Gemini CLI's session/load in the minute its session started would erase that session
      // (google-gemini/gemini-cli#28775): the chat waits for the next minute and says so. A
      // conversation begun just now, reloaded at once, shows that wait (unless a minute turns between).
      const erasesThisMinute = agent.reopens === 'load' && agent.id === 'gemini';
      if (erasesThisMinute) {
        mid = await addTab(f);
        await inputOf(f, mid).waitFor();
        await waitForText(page.locator('.statusbar-item', { hasText: `${agent.name}:` }).first(), `${agent.name}: ready`, 90_000);
      }
      const begun = Date.now();
      await send(mid, `please remember the codeword ${codeword}`);
      await waitForText(answersOf(f, mid), 'I will remember it.', 60_000);
      await until('the turn to end', async () => !(await wrapperOf(f, mid).locator('.mynah-chat-prompt-stop-button').isVisible()), 30_000);
      await page.reload();
      f = await openChat(page);
      await chatHistoryButton(page).click();
      const row = page
        .locator('.quick-input-list .monaco-list-row', { hasText: `${agent.name} ·`, hasNotText: "the agent's own session" })
        .first();
      await row.waitFor({ timeout: 20_000 });
      await shot(`${agent.id}-history`);
      const before = await selectedTab(f);
      await row.click();
      for (let i = 0; i < 100 && (mid = await selectedTab(f)) === before; i++) await sleep(100);
      if (erasesThisMinute && minuteOf(Date.now()) === minuteOf(begun))
        await waitForMatch(wrapperOf(f, mid), /would erase a session .*loading it in \d+ s/, 30_000);
      await waitForMatch(wrapperOf(f, mid), agent.reopens === 'resume' ? /resumed this session/ : /loaded this session/, 90_000);
      // The agent continues in the mode the conversation was in, not in its first one (Qwen Code's
      // Auto, which would write without asking).
      if (agent.writeMode) {
        const picked = await pickedOptions(f, mid);
        if (!picked.includes(agent.writeMode)) throw new Error(`continued in another mode: the pickers show ${JSON.stringify(picked)}`);
      }
      await send(mid, 'what was the codeword?');
      await waitForText(answersOf(f, mid), `You told me the codeword ${codeword}.`, 60_000);
      await shot(`${agent.id}-continued`);
    },
  );

  const refused = path.join(ws, `${agent.id}-refused.txt`);
  if (agent.asks.write)
    await featureStep(
      'Reject: the write is not made, the agent is told',
      `${L}: a write the user rejects is not made, and the agent is told`,
      async () => {
        // Last before closing: Claude Code answers a refusal's tool result in the turn after (its
        // adapter ends the turn at once), and that turn's prompt never reaches its model.
        await send(mid, `now write the refused file for ${agent.id}`);
        await answerApproval(mid, agent.reject);
        await until(
          'the turn to end',
          async () => !(await wrapperOf(f, mid).locator('.mynah-chat-prompt-stop-button').isVisible()),
          60_000,
        );
        if (fs.existsSync(refused)) throw new Error('the rejected file was written');
        // What the agent got back: the model's next text quotes its tool's result, or (Claude Code and
        // Qwen Code end the turn on a refusal) the failed tool card shows it.
        const text = (await answersOf(f, mid).allInnerTexts()).join('\n');
        const at = text.lastIndexOf('The write did not happen; the tool said:');
        const told = at >= 0 ? text.slice(at) : await (await openDetails(f, mid, agent.refusedCard ?? 'refused.txt')).innerText();
        console.log(`    the agent was told: ${JSON.stringify(told.slice(0, 300))}`);
        if (!/reject|refus|denied|declin|not allowed|cancel/i.test(told)) throw new Error(`nothing says the write was refused: ${told}`);
        await shot(`${agent.id}-rejected`);
      },
    );

  // Closing the tab ends its session; the pool keeps the agent's process a few seconds for a next
  // tab with the same configuration, then ends it.
  await featureStep('the tab closes', `${L}: the tab closes`, async () => {
    if (!runProcesses(runDir, agent.bin).length) throw new Error('no agent process found while the tab is open');
    await f.locator(`label[for="mynah-main-tabs-${mid}"] .mynah-tabs-close-button`).click({ force: true });
    const confirm = f.locator('[data-testid="tab-bar-tab-close-confirmation-accept-button"]');
    if (await confirm.isVisible().catch(() => false)) await confirm.click();
    await until('the tab to go', async () => !(await f.locator(`label[for="mynah-main-tabs-${mid}"]`).count()), 10_000);
  });

  await featureStep(
    'nothing left running once no tab uses it',
    `${L}: once no tab uses it, the agent ends (after the pool's idle time), VS Code still running`,
    async () => {
      // The tab the window opened after the reload talks to the same agent: close it too.
      await closeTabs();
      console.log(`    tabs left: ${await f.locator('label[for^="mynah-main-tabs-"]').count()}`);
      await until('the agent processes to end', async () => runProcesses(runDir, agent.bin).length === 0, 40_000).catch(() => {
        throw new Error(`left running: ${describeProcesses(runProcesses(runDir, agent.bin))}`);
      });
    },
  );
}

/** Closes every chat tab (also after an agent's step failed, so the next agent starts as it would have). */
async function closeTabs() {
  if (!f) return;
  for (const label of await f.locator('label[for^="mynah-main-tabs-"]').all()) {
    await label.locator('.mynah-tabs-close-button').click({ force: true });
    const confirm = f.locator('[data-testid="tab-bar-tab-close-confirmation-accept-button"]');
    if (await confirm.isVisible().catch(() => false)) await confirm.click();
  }
}

let exitCode = 0;
// One agent's failure ends its own steps (they build on each other), not the other agents'.
for (const [i, agent] of agents.entries()) {
  try {
    await runAgent(agent, i === 0);
  } catch {
    exitCode = 1;
    await closeTabs().catch((e) => console.log(`    closing the tabs after the failure: ${e}`));
  }
}
try {
  await step('closing the window (VS Code quits) leaves no agent process', async () => {
    await ctx.close();
    const left = () => runProcesses(runDir, 'agents/node_modules/');
    // code-server ends the window's extension host once its reconnection grace (5 s) is over.
    await until('the agent processes to end', () => left().length === 0, 30_000).catch(() => {
      throw new Error(`left running: ${describeProcesses(left())}`);
    });
  });
} catch {
  exitCode = 1;
}
writeResults('e2e-agents', results);
if (Object.keys(compat).length)
  fs.writeFileSync(
    path.join(RESULTS_DIR, 'agent-compat-e2e.json'),
    JSON.stringify({ suite: 'real chat', at: new Date().toISOString(), outcomes: compat }, null, 2) + '\n',
  );
console.log(`e2e-agents: ${results.passes.length} passed, ${results.failures.length} failed`);
await ctx.close().catch(() => {});
model.stdin.end();
process.exit(exitCode);
