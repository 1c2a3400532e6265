// What scripts/agents-e2e.mjs knows about the agents it drives and the cards they make: each
// agent's name in the settings, its own modes and approval buttons (as the agent advertises them),
// and helpers to find approval cards, tool cards and the prompt's pickers in a chat tab, and to
// drive the workbench (the command palette, a new tab).
import fs from 'node:fs';
import { answersOf, selectedTab, until, wrapperOf } from './chatPage.mjs';
import { sleep } from './browser.mjs';

/**
 * The agents, in the order the e2e runs them. `modes`: names the mode picker must list; `allow` /
 * `reject`: the labels of the agent's own approval options; `writeMode`: the mode (picker label) a
 * user chooses before the agent may write; `asks`: whether it asks before `echo` and before a write
 * (Codex's Default mode runs both in its sandbox and asks only to leave it; Gemini CLI's policy
 * allows read-only commands such as `echo` without asking); `diffCard`: its edit's
 * tool card carries the diff; `outputInCard`: its shell tool card carries the command's output
 * (Gemini CLI 0.61 sends none in its tool_call_update: only the answer quotes it; Codex: see below);
 * `refusedCard`: the text naming its refused write's tool card (default: the file's name); `bin`: what
 * the agent's processes' command lines hold.
 */
export const AGENTS = [
  {
    id: 'claude-code-acp',
    name: 'Claude Code',
    modes: ['Default', 'Accept Edits', 'Plan Mode', "Don't Ask", 'Bypass Permissions'],
    asks: { run: true, write: true },
    outputInCard: true,
    diffCard: true,
    reopens: 'resume',
    // Its Write tool goes through the editor's fs/write_text_file (the others write files themselves).
    writesThroughEditor: true,
    allow: /^Allow$/,
    reject: /^Reject$/,
    bin: 'agents/node_modules/',
  },
  {
    id: 'codex',
    name: 'Codex',
    modes: ['Read Only', 'Default', 'Full Access'],
    writeMode: 'Default',
    reopens: 'resume',
    asks: { run: false, write: false },
    // It reports a command's end (with its output) after the turn, sometimes while the next one runs.
    outputInCard: true,
    allow: /^(Yes|Allow)/,
    reject: /^(No|Reject)/,
    bin: 'agents/node_modules/',
  },
  {
    id: 'gemini',
    name: 'Gemini CLI',
    modes: ['Default', 'Auto Edit', 'YOLO', 'Plan'],
    asks: { run: false, write: true },
    outputInCard: false,
    reopens: 'load',
    writesThroughEditor: true,
    allow: /^Allow( once)?$/i,
    reject: /^Reject|^No|Cancel/i,
    bin: 'agents/node_modules/',
  },
  {
    id: 'claude-agent-acp',
    name: 'Claude Agent',
    modes: ['Manual', 'Accept edits', 'Plan', 'Auto', 'Bypass permissions'],
    // It starts in Auto, where a model call of its own decides; Manual asks, as a cautious user sets it
    // (before a write; a read-only command such as `echo` runs without asking).
    writeMode: 'Manual',
    asks: { run: false, write: true },
    outputInCard: true,
    diffCard: true,
    reopens: 'resume',
    allow: /^Yes$/,
    reject: /^No$/,
    bin: 'agents/node_modules/',
  },
  {
    id: 'qwen',
    name: 'Qwen Code',
    modes: ['Plan', 'Default', 'Auto Edit', 'Auto', 'YOLO'],
    // It starts in Auto, which never asks; Default asks before a write (a read-only command such as
    // `echo` runs without asking). A resumed session is back in Auto.
    writeMode: 'Default',
    asks: { run: false, write: true },
    outputInCard: true,
    reopens: 'resume',
    writesThroughEditor: true,
    allow: /^Allow$/i,
    reject: /^Reject$/i,
    // Its write's card is titled by the tool, not the file.
    refusedCard: 'WriteFile',
    bin: 'agents/node_modules/',
  },
  {
    id: 'opencode',
    name: 'OpenCode',
    // No ACP modes: its "Session Mode" config option is the picker.
    modes: ['build', 'plan'],
    asks: { run: false, write: false },
    outputInCard: true,
    reopens: 'resume',
    // It writes a new file itself: symposium.reviewAgentEdits cannot hold it (seen here).
    allow: /^Allow/i,
    reject: /^Reject/i,
    bin: 'agents/node_modules/',
  },
];

/** Every approval card of the tab (waiting or decided): each says what the agent requested. */
export const approvalCards = (f, mid) => answersOf(f, mid).filter({ hasText: 'requested by the agent.' });
/** The tab's approval cards still waiting for the user. */
export const waitingApprovals = (f, mid) => approvalCards(f, mid).filter({ hasText: 'Permission needed' });

/** Opens the collapsed details of the tab's last tool card whose title matches `title`; returns the card. */
export async function openDetails(f, mid, title) {
  const card = answersOf(f, mid)
    .filter({ hasNotText: 'requested by the agent.' })
    .filter({ hasText: title })
    .filter({ has: f.locator('.mynah-chat-item-summary-button') })
    .last();
  await card.locator('.mynah-chat-item-summary-button').first().click();
  return card;
}

/** The option labels of each select under the tab's prompt (the mode, model and config pickers). */
export async function pickers(f, mid) {
  return wrapperOf(f, mid)
    .locator('[data-testid="prompt-input-options"] select')
    .evaluateAll((selects) => selects.map((s) => [...s.options].map((o) => o.textContent?.trim() ?? '')));
}

/** The option each picker under the tab's prompt shows as chosen. */
export async function pickedOptions(f, mid) {
  return wrapperOf(f, mid)
    .locator('[data-testid="prompt-input-options"] select')
    .evaluateAll((selects) => selects.map((s) => s.options[s.selectedIndex]?.textContent?.trim() ?? ''));
}

/** Chooses `label` in the picker under the tab's prompt that offers it, as a user would. */
export async function choosePickerOption(f, mid, label) {
  const all = await pickers(f, mid);
  const at = all.findIndex((options) => options.includes(label));
  if (at < 0) throw new Error(`no picker offers ${label}: ${JSON.stringify(all)}`);
  await wrapperOf(f, mid).locator('[data-testid="prompt-input-options"] select').nth(at).selectOption({ label });
}

/** Symposium: Choose Agent… from the command palette, then the agent's entry under "Your agents". */
export async function chooseAgentInPalette(page, name, shot) {
  await page.locator('.part.editor').click({ position: { x: 50, y: 50 } });
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.fill('>Symposium: Choose Agent');
  await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Choose Agent' }).first().click();
  await page.locator('.quick-input-list .monaco-list-row', { hasText: name }).first().waitFor();
  await shot(`choose-${name.replace(/\W+/g, '-')}`);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: name }).first().click();
}

/** Runs a command from the command palette by its title. */
export async function runCommand(page, title) {
  await page.locator('.part.editor').click({ position: { x: 50, y: 50 } });
  await page.keyboard.press('F1');
  await page.locator('.quick-input-widget input').fill(`>${title}`);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first().click();
}

/** Resolves once the locator's text matches `pattern` (the answer streams in: its start comes first). */
export async function waitForMatch(locator, pattern, timeout = 60_000) {
  let last = '';
  await until(`${pattern}`, async () => pattern.test((last = (await locator.allInnerTexts().catch(() => [])).join('\n'))), timeout).catch(
    () => {
      throw new Error(`timed out waiting for ${pattern}; saw ${JSON.stringify(last.slice(-1500))}`);
    },
  );
}

/** The chat's "+" button: a new tab, selected; its id. */
export async function addTab(f) {
  const before = await selectedTab(f);
  await f.locator('[data-testid="tab-bar-tab-add-button"]').click();
  let mid = before;
  for (let i = 0; i < 50 && (mid = await selectedTab(f)) === before; i++) await sleep(100);
  if (!mid || mid === before) throw new Error('no new tab selected');
  return mid;
}

/**
 * Best effort, after a failed step: "Symposium: Save Protocol Trace" of the agent's tab (the one
 * whose title is `tabTitle`, when several have sessions), into the workspace under its default name
 * (the save dialog's own); returns the file's path, or undefined when nothing was saved.
 */
export async function saveProtocolTrace(page, ws, tabTitle) {
  const before = new Set(fs.readdirSync(ws));
  await runCommand(page, 'Symposium: Save Protocol Trace');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ timeout: 5_000 });
  const tab = page.locator('.quick-input-list .monaco-list-row', { hasText: tabTitle }).first();
  if (await tab.isVisible().catch(() => false)) await tab.click();
  await sleep(500);
  await page.keyboard.press('Enter'); // the save dialog's default path, in the workspace
  for (let i = 0; i < 50; i++) {
    const saved = fs.readdirSync(ws).find((n) => n.startsWith('symposium-trace-') && !before.has(n));
    if (saved) return `${ws}/${saved}`;
    await sleep(100);
  }
  return undefined;
}

/**
 * What the agent itself reported, in a saved protocol trace, about the tool call whose own input or
 * title holds `command`: whether any of its reports carried `line` as a line of the command's output
 * (in the call's content, or its raw output's stdout or aggregated output; the command's own text is
 * not output), and whether the agent ever said the call ended (completed or failed).
 */
export function agentToolReport(traceFile, command, line) {
  const asLine = new RegExp(`(^|\\n)${line.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\n|$)`);
  const strings = (v) => (typeof v === 'string' ? [v] : v && typeof v === 'object' ? Object.values(v).flatMap(strings) : []);
  const calls = new Set();
  const report = { output: false, ended: false };
  for (const text of fs.readFileSync(traceFile, 'utf8').split('\n')) {
    let update;
    try {
      update = JSON.parse(text)?.message?.params?.update;
    } catch {
      continue;
    }
    if (update?.sessionUpdate !== 'tool_call' && update?.sessionUpdate !== 'tool_call_update') continue;
    if (strings([update.title, update.rawInput]).some((s) => s.includes(command))) calls.add(update.toolCallId);
    if (!calls.has(update.toolCallId)) continue;
    const raw = update.rawOutput;
    const rawOutputs = typeof raw === 'string' ? [raw] : strings([raw?.stdout, raw?.aggregated_output, raw?.formatted_output, raw?.output]);
    if ([...strings(update.content), ...rawOutputs].some((s) => asLine.test(s))) report.output = true;
    if (update.status === 'completed' || update.status === 'failed') report.ended = true;
  }
  return report;
}
