// The tab-level UI state that follows from the conversation: busy/Stop, the info line, the agent's
// slash commands in the `/` menu, and the session's pickers (mode, config options such as the model,
// or the older model list) as prompt-input selects. Also the reverse: a picker change → the
// protocol message that asks the agent for it; and what a tab's store shows, for the host's test
// query. Pure.
import type { ChatItem, ChatItemFormItem, MynahUIDataModel, ProgressField, QuickActionCommandGroup } from '@aws/mynah-ui';
import type { SessionConfigOption } from '@agentclientprotocol/sdk';
import type { ContextRef, RenderedItem, SessionControls, SetConfigOption, SetMode, SetModel, TabId } from '../../src/protocol/webview';
import { isBusy, type Conversation, type Notice } from '../../src/protocol/conversation';
import { contextCommandsFor, contextKey } from './contextMenu';
import { safeLabel } from './untrusted';
import { contextText, costText, USAGE_WARNING_PERCENT, usagePercent } from '../../src/protocol/usage';
import { modeOption } from '../../src/protocol/sessionMode';

export const MODE_PICKER = 'mode';
export const MODEL_PICKER = 'model';
export const CONFIG_PICKER_PREFIX = 'config:';

type SelectItem = Extract<ChatItemFormItem, { type: 'select' }>;
type SwitchItem = Extract<ChatItemFormItem, { type: 'switch' | 'checkbox' }> & { type: 'switch' };
/** A picker under the prompt: a select, or a switch for a boolean config option. */
export type PickerItem = SelectItem | SwitchItem;

function configOptionValues(o: SessionConfigOption): { value: string; label: string; description?: string }[] {
  if (o.type !== 'select') return [];
  return o.options.flatMap((entry) =>
    'group' in entry
      ? entry.options.map((x) => ({ value: x.value, label: `${entry.name}: ${x.name}`, description: x.description ?? undefined }))
      : [{ value: entry.value, label: entry.name, description: entry.description ?? undefined }],
  );
}

/** The pickers shown under the prompt input for these controls. */
export function pickersFor(controls: SessionControls | undefined): PickerItem[] {
  if (!controls) return [];
  const pickers: PickerItem[] = [];
  const configs = (controls.configOptions ?? []).filter((o) => o.type === 'select');
  // ACP: an agent that offers its modes as a config option (Qwen Code, Codex) means that one; its
  // older `modes` list says the same, and two pickers for one thing would show both.
  const modes = modeOption(controls) ? undefined : controls.modes;
  if (modes && modes.availableModes.length > 0) {
    pickers.push({
      type: 'select',
      id: MODE_PICKER,
      value: modes.currentModeId,
      tooltip: 'Agent mode',
      autoWidth: true,
      border: false,
      options: modes.availableModes.map((m) => ({ value: m.id, label: m.name, description: m.description ?? undefined })),
    });
  }
  for (const o of configs) {
    pickers.push({
      type: 'select',
      id: `${CONFIG_PICKER_PREFIX}${o.id}`,
      value: String(o.currentValue),
      tooltip: o.name,
      autoWidth: true,
      border: false,
      options: configOptionValues(o),
    });
  }
  // Boolean options (ACP `SessionConfigBoolean`) as switches, after the selects; mynah's form
  // values are strings, so the state travels as 'true' / 'false' (pickerChanges turns it back).
  for (const o of controls.configOptions ?? []) {
    if (o.type !== 'boolean') continue;
    pickers.push({
      type: 'switch',
      id: `${CONFIG_PICKER_PREFIX}${o.id}`,
      value: o.currentValue ? 'true' : 'false',
      label: o.name,
      tooltip: o.description ?? o.name,
    });
  }
  // The older `models` list, unless a config option already offers the model.
  const models = controls.models;
  if (models && models.availableModels.length > 0 && !configs.some((o) => o.category === 'model')) {
    pickers.push({
      type: 'select',
      id: MODEL_PICKER,
      value: models.currentModelId,
      tooltip: 'Model',
      autoWidth: true,
      border: false,
      options: models.availableModels.map((m) => ({ value: m.modelId, label: m.name, description: m.description ?? undefined })),
    });
  }
  return pickers;
}

/** Which set_* messages a change of the picker values asks for (only the pickers that changed). */
export function pickerChanges(
  tabId: TabId,
  controls: SessionControls | undefined,
  values: Record<string, string>,
): (SetMode | SetConfigOption | SetModel)[] {
  const pickers = pickersFor(controls);
  const current = Object.fromEntries(pickers.map((p) => [p.id, p.value]));
  const switches = new Set(pickers.filter((p) => p.type === 'switch').map((p) => p.id));
  const out: (SetMode | SetConfigOption | SetModel)[] = [];
  for (const [id, value] of Object.entries(values)) {
    if (typeof value !== 'string' || !(id in current) || current[id] === value) continue;
    if (id === MODE_PICKER) out.push({ type: 'set-mode', tabId, modeId: value });
    else if (id === MODEL_PICKER) out.push({ type: 'set-model', tabId, modelId: value });
    else if (id.startsWith(CONFIG_PICKER_PREFIX))
      out.push({
        type: 'set-config-option',
        tabId,
        configId: id.slice(CONFIG_PICKER_PREFIX.length),
        value: switches.has(id) ? value === 'true' : value,
      });
  }
  return out;
}

/** The agent's slash commands for the `/` menu. Commands taking input get a placeholder. */
export function slashCommandsFor(c: Conversation): QuickActionCommandGroup[] {
  const commands = c.commands ?? [];
  if (commands.length === 0) return [];
  return [
    {
      groupName: `${c.agentName ?? 'Agent'} commands`,
      commands: commands.map((cmd) => ({
        command: `/${cmd.name}`,
        description: cmd.description,
        ...(cmd.input ? { placeholder: cmd.input.hint } : {}),
      })),
    },
  ];
}

/**
 * The agent's own name for the command mynah-ui reports picked: mynah was given each name made
 * safe (untrusted.ts), so a name holding `<` comes back escaped.
 */
export function pickedCommand(c: Conversation, shown: string | undefined): string | undefined {
  if (shown === undefined) return undefined;
  const match = (c.commands ?? []).find((cmd) => safeLabel(`/${cmd.name}`) === shown);
  return match ? `/${match.name}` : shown;
}

/** The text a prompt with a chosen slash command sends: `/name args`. */
export function promptWithCommand(command: string | undefined, text: string): string {
  const args = text.trim();
  if (!command) return text;
  const name = command.startsWith('/') ? command : `/${command}`;
  return args ? `${name} ${args}` : name;
}

/** Longest tab title; the tab bar cuts it further to fit. */
const MAX_TITLE_CHARS = 50;

/**
 * The tab's title once the conversation has one: the agent's session title, else the first line of
 * the first prompt; undefined before (the tab keeps "Chat"). mynah-ui writes a changed title into
 * the page as HTML (it sets a title at creation as text), so `<`, `>` and `&` become look-alikes
 * that mean nothing to HTML and read the same (‹ › ＆): the title is then the same string on both
 * paths, with no escaping to undo.
 */
export function tabTitleFor(c: Conversation): string | undefined {
  const firstPrompt = c.blocks.find((b) => b.kind === 'turn' && b.prompt.trim() !== '');
  const text = c.title ?? (firstPrompt?.kind === 'turn' ? firstPrompt.prompt : undefined);
  // The first line with something on it, found without splitting the whole text: this runs on
  // every update of the tab, and a first prompt can be a long paste.
  const line = text === undefined ? undefined : /^[^\n]*\S[^\n]*$/m.exec(text)?.[0].replace(/\s+/g, ' ').trim();
  if (!line) return undefined;
  const chars = [...line];
  const head = chars.slice(0, MAX_TITLE_CHARS - 1).join('');
  const cut = chars.length > MAX_TITLE_CHARS ? `${head.trimEnd()}…` : line;
  return cut.replace(/</g, '‹').replace(/>/g, '›').replace(/&/g, '＆');
}

/** The session's context use and cost for the info line: `context 15k of 258k tokens (6 %) · 0.0018 USD`. */
export function usageText(usage: Conversation['usage']): string | undefined {
  if (!usage) return undefined;
  const cost = costText(usage);
  return `context ${contextText(usage)}${cost ? ` · ${cost}` : ''}`;
}

/**
 * The context meter by the prompt: how full the agent's context window is, in the warning colour
 * past USAGE_WARNING_PERCENT (the agent is about to compact or refuse), and the session's cost
 * when the agent reports one. Nothing before the first `usage_update`.
 */
export function usageMeter(usage: Conversation['usage']): ProgressField | null {
  if (!usage) return null;
  const percent = usagePercent(usage);
  const cost = costText(usage);
  return {
    status: percent > USAGE_WARNING_PERCENT ? 'warning' : 'default',
    value: percent,
    text: `Context ${contextText(usage)}`,
    valueText: cost ? `Cost ${cost}` : `${percent} %`,
  };
}

/**
 * `contextItems`: what the `@` menu offers (the same for every tab). `workingSeconds`: how long the
 * running turn has run, shown next to the Stop button ("Working… 12 s") so a silent agent is visibly alive.
 */
export function tabStoreFor(c: Conversation, contextItems?: ContextRef[], workingSeconds?: number): MynahUIDataModel {
  // No session yet: still starting, or waiting on the user's sign-in (its card is in the tab).
  const signIn = c.blocks.find((b): b is Notice => b.kind === 'notice' && b.signIn !== undefined && !b.signIn.optional && !b.resolved);
  const usage = usageText(c.usage);
  const where = c.agentName
    ? `${c.agentName} · ${c.cwd ?? ''}${usage ? ` · ${usage}` : ''}`
    : signIn
      ? `Waiting for you to sign in to ${signIn.agentName}`
      : 'Starting the agent…';
  const busy = isBusy(c);
  const title = tabTitleFor(c);
  // A turn that waits on the user's answer to a permission card is not "working".
  const asking = c.blocks.some((b) => b.kind === 'turn' && b.status === 'running' && b.permissions.some((p) => !p.decision));
  return {
    // A past conversation the agent did not continue: the card's button starts a new session.
    promptInputDisabledState: !!c.readOnly,
    loadingChat: busy,
    cancelButtonWhenLoading: true,
    promptInputInfo: c.readOnly
      ? 'Read-only: the agent did not continue this conversation'
      : busy && asking
        ? `Waiting for your answer above · ${where}`
        : busy && workingSeconds !== undefined
          ? `Working… ${workingSeconds} s · ${where}`
          : where,
    quickActionCommands: slashCommandsFor(c),
    promptInputOptions: pickersFor(c.controls),
    contextCommands: contextCommandsFor(contextItems),
    // Attached by "Discuss in Symposium": shown as pills above the prompt until sent.
    promptTopBarContextItems: (c.attached ?? []).map((r) => ({ command: r.name, id: contextKey(r), icon: 'text-select' as const })),
    promptTopBarTitle: c.attached?.length ? 'Attached' : '',
    promptInputStickyCard: queuedCard(c),
    promptInputProgress: usageMeter(c.usage),
    tabBarButtons: TAB_MENU,
    ...(title !== undefined ? { tabTitle: title } : {}),
  };
}

export const QUEUED_CARD_ID = 'queued-prompts';
export const WITHDRAW_QUEUED_BUTTON_ID = 'withdraw-queued';
export const STEER_QUEUED_BUTTON_ID = 'steer-queued';

/**
 * Prompts sent while the agent was busy wait their turn; until it comes they are not in the
 * conversation, so this card above the input says they were taken, and "Edit" takes them back
 * into the input (the host withdraws them). The text is the user's own; untrusted.ts makes it
 * safe for mynah like everything else in the store.
 */
function queuedCard(c: Conversation): Partial<ChatItem> | null {
  const queued = c.queued ?? [];
  if (queued.length === 0) return null;
  const quote = (text: string): string =>
    text
      .split('\n')
      .map((l) => `> ${l}`)
      .join('\n');
  const title =
    queued.length === 1 ? 'Queued: sent when the agent finishes' : `${queued.length} prompts queued: sent in turn when the agent finishes`;
  return {
    messageId: QUEUED_CARD_ID,
    body: `**${title}**\n\n${queued.map((q) => quote(q.text)).join('\n\n')}`,
    buttons: [
      { id: WITHDRAW_QUEUED_BUTTON_ID, text: 'Edit', description: 'Take back into the input', status: 'clear' as const },
      // Queueing stays the default; where the agent takes input into its running turn, the user may choose that.
      ...(queued.some((q) => q.steerable)
        ? [
            {
              id: STEER_QUEUED_BUTTON_ID,
              text: 'Send now (steer)',
              description: 'Give it to the agent now, in the turn it is working on',
              status: 'primary' as const,
            },
          ]
        : []),
    ],
  };
}

export const EXPORT_CONVERSATION_BUTTON_ID = 'export-conversation';
/** The tab's own menu (next to the tabs). */
const TAB_MENU = [
  {
    id: 'tab-menu',
    icon: 'ellipsis-h' as const,
    description: 'This conversation',
    items: [{ id: EXPORT_CONVERSATION_BUTTON_ID, text: 'Export to Markdown', icon: 'doc' as const }],
  },
];

/** A tab's own UI state (slash commands, pickers, info line, attachments) as one pseudo-item, for the host's test query. */
export function tabStoreItem(store: MynahUIDataModel | null | undefined, attached: readonly string[]): RenderedItem {
  const body = {
    commands: (store?.quickActionCommands ?? []).flatMap((g) => g.commands.map((c) => c.command)),
    pickers: (store?.promptInputOptions ?? []).map((p) => ({
      id: p.id,
      type: p.type,
      value: p.value,
      options: 'options' in p ? (p.options ?? []).map((o) => o.value) : [],
    })),
    info: store?.promptInputInfo ?? '',
    ...(store?.promptInputProgress ? { meter: store.promptInputProgress } : {}),
    attached,
    contextGroups: (store?.contextCommands ?? []).flatMap((g) => g.commands.map((c) => c.command)),
    // The queued prompts' card above the input: its buttons (Edit, Send now (steer)).
    queuedButtons: (store?.promptInputStickyCard?.buttons ?? []).map((b) => b.text ?? b.id),
  };
  return { type: 'tab-store', messageId: 'tab-store', body: JSON.stringify(body) };
}
