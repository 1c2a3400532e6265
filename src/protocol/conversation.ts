// Folds the host's conversation messages, in order, into one tab's conversation (conversationModel.ts).
// The one fold of a conversation: the webview applies each message as it arrives (and saves the
// result with its state, so a streaming answer continues after the webview is re-created); the
// history exporter folds a recorded conversation the same way, so a Markdown export shows what the
// chat showed. Pure.
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import type { ConversationEntry, MessageId } from './webview';
import { appendUpdate } from './coalesce';
import { sparkleMarkOf } from './symposium-ext';
import { readUsage } from './usage';
import { blockId, emptyConversation, type Conversation, type Notice, type SignInCard, type Turn } from './conversationModel';

export * from './conversationModel';

function findTurn(c: Conversation, messageId: MessageId): Turn | undefined {
  for (let i = c.blocks.length - 1; i >= 0; i--) {
    const b = c.blocks[i]!;
    if (b.kind === 'turn' && b.messageId === messageId) return b;
  }
  return undefined;
}

function ensureTurn(c: Conversation, messageId: MessageId, prompt = ''): Turn {
  let t = findTurn(c, messageId);
  if (!t) {
    t = { kind: 'turn', messageId, prompt, updates: [], status: 'running', permissions: [] };
    c.blocks.push(t);
  }
  return t;
}

/** Adds one update to a turn: merged with the last one when possible, tool updates into their call. */
export function addUpdate(t: Turn, update: SessionUpdate): void {
  appendUpdate(t.updates, update);
}

/**
 * A Sparkle embodiment update: into this session's embodiment section, which lives in the user's
 * turn that was running when the first one arrived (its prompt waits behind the embodiment), else
 * in a block of its own. Deterministic ids, so a replay (resync) builds the same blocks.
 */
function addEmbodiment(c: Conversation, messageId: MessageId | undefined, update: SessionUpdate): string {
  let t = c.embodimentBlock === undefined ? undefined : findTurn(c, c.embodimentBlock);
  if (!t) {
    t = messageId ? ensureTurn(c, messageId) : undefined;
    if (!t) {
      t = { kind: 'turn', messageId: `sparkle-embodiment-${c.blocks.length}`, prompt: '', updates: [], status: 'done', permissions: [] };
      c.blocks.push(t);
    }
    c.embodimentBlock = t.messageId;
  }
  appendUpdate((t.embodiment ??= []), update);
  return t.messageId;
}

/**
 * A `tool_call_update` for a call the turn has not seen as a `tool_call`, but that an approval
 * card of the turn described: Gemini CLI announces a call that needs approval only inside
 * `session/request_permission`. The update becomes the call itself, the approval's description
 * completed by the update, so the call has one tool card with its title, kind and places even
 * when the updates carry only a status.
 */
function announcedByPermission(t: Turn, u: SessionUpdate): SessionUpdate | undefined {
  if (u.sessionUpdate !== 'tool_call_update') return undefined;
  const known = t.updates.some(
    (x) => (x.sessionUpdate === 'tool_call' || x.sessionUpdate === 'tool_call_update') && x.toolCallId === u.toolCallId,
  );
  const card = known ? undefined : t.permissions.find((p) => p.toolCall.toolCallId === u.toolCallId);
  if (!card) return undefined;
  const defined = Object.fromEntries(Object.entries(u).filter(([, v]) => v !== undefined && v !== null));
  return { title: 'Tool call', ...card.toolCall, ...defined, sessionUpdate: 'tool_call' } as SessionUpdate;
}

const isToolUpdate = (u: SessionUpdate): u is Extract<SessionUpdate, { sessionUpdate: 'tool_call' | 'tool_call_update' }> =>
  u.sessionUpdate === 'tool_call' || u.sessionUpdate === 'tool_call_update';

/** The turn, other than `messageId`'s, whose card shows this update's tool call (latest first). */
function earlierTurnOfCall(c: Conversation, u: SessionUpdate, messageId: MessageId | undefined): Turn | undefined {
  if (u.sessionUpdate !== 'tool_call_update') return undefined;
  const holds = (t: Turn): boolean => t.updates.some((x) => isToolUpdate(x) && x.toolCallId === u.toolCallId);
  for (let i = c.blocks.length - 1; i >= 0; i--) {
    const b = c.blocks[i]!;
    if (b.kind !== 'turn') continue;
    if (b.messageId === messageId) {
      if (holds(b)) return undefined; // the running turn's own call
      continue;
    }
    if (holds(b)) return b;
  }
  return undefined;
}

/** Session-level updates (pickers, commands) change the tab, not a turn's cards. */
function applySessionState(c: Conversation, u: SessionUpdate): boolean {
  switch (u.sessionUpdate) {
    case 'available_commands_update':
      c.commands = u.availableCommands;
      return true;
    case 'current_mode_update':
      if (c.controls?.modes) c.controls = { ...c.controls, modes: { ...c.controls.modes, currentModeId: u.currentModeId } };
      return true;
    case 'config_option_update':
      c.controls = { ...c.controls, configOptions: u.configOptions };
      return true;
    case 'session_info_update':
      // A title set to null (or blank) is cleared; other fields (updatedAt) are not shown.
      if (u.title !== undefined) {
        if (typeof u.title === 'string' && u.title.trim() !== '') c.title = u.title;
        else delete c.title;
      }
      return true;
    case 'usage_update': {
      // The host drops what cannot be shown; a saved state from before is read the same way.
      const read = readUsage(u);
      if ('usage' in read) c.usage = read.usage;
      return true;
    }
    default:
      return false;
  }
}

/** The turn a message without a turn of its own belongs to: the latest one (or a new one). */
function turnFor(c: Conversation, messageId: MessageId | undefined, fallbackId: string): Turn {
  if (messageId) return ensureTurn(c, messageId);
  for (let i = c.blocks.length - 1; i >= 0; i--) {
    const b = c.blocks[i]!;
    if (b.kind === 'turn') return b;
  }
  return ensureTurn(c, fallbackId);
}

/** Applies one conversation message; returns the ids of the blocks it changed. */
export function applyEntry(c: Conversation, e: ConversationEntry): string[] {
  switch (e.type) {
    case 'session-ready':
      c.agentName = e.agentName;
      c.cwd = e.cwd;
      if (e.controls) c.controls = e.controls;
      c.embodimentBlock = undefined; // a new session is embodied anew
      c.readOnly = undefined;
      return [];
    case 'controls-changed':
      c.controls = { ...c.controls, ...e.controls };
      return [];
    case 'permission-requested': {
      const t = turnFor(c, e.messageId, e.requestId);
      if (!t.permissions.some((p) => p.requestId === e.requestId)) {
        t.permissions.push({ requestId: e.requestId, position: t.updates.length, toolCall: e.toolCall, options: e.options });
      }
      return [t.messageId];
    }
    case 'permission-resolved': {
      for (const b of c.blocks) {
        const card = b.kind === 'turn' ? b.permissions.find((p) => p.requestId === e.requestId) : undefined;
        if (card && b.kind === 'turn') {
          card.decision = e.decision;
          return [b.messageId];
        }
      }
      return [];
    }
    case 'elicitation-requested': {
      const t = turnFor(c, e.messageId, e.requestId);
      const cards = (t.elicitations ??= []);
      if (!cards.some((x) => x.requestId === e.requestId))
        cards.push({
          requestId: e.requestId,
          position: t.updates.length,
          prompt: e.prompt,
          ...(e.toolCallId ? { toolCallId: e.toolCallId } : {}),
        });
      return [t.messageId];
    }
    case 'elicitation-resolved': {
      for (const b of c.blocks) {
        const card = b.kind === 'turn' ? b.elicitations?.find((x) => x.requestId === e.requestId) : undefined;
        if (card) {
          card.outcome = e.outcome;
          return [(b as Turn).messageId];
        }
      }
      return [];
    }
    case 'terminal-output': {
      const { type: _t, terminalId, ...view } = e;
      c.terminals = { ...c.terminals, [terminalId]: view };
      // Redraw the turns whose tool cards show this terminal.
      return c.blocks
        .filter(
          (b): b is Turn =>
            b.kind === 'turn' &&
            b.updates.some(
              (u) =>
                (u.sessionUpdate === 'tool_call' || u.sessionUpdate === 'tool_call_update') &&
                (u.content ?? []).some((x) => x.type === 'terminal' && x.terminalId === terminalId),
            ),
        )
        .map((b) => b.messageId);
    }
    case 'tab-notice': {
      const n: Notice = {
        kind: 'notice',
        id: `tab-notice-${c.blocks.length}`,
        level: e.level,
        agentName: c.agentName ?? 'agent',
        text: e.text,
        resolved: true,
        ...(e.offer ? { offer: e.offer } : {}),
        ...(e.settings ? { settings: e.settings } : {}),
      };
      if (e.offer) c.readOnly = true;
      c.blocks.push(n);
      return [blockId(n)];
    }
    case 'prompt-started': {
      const existed = findTurn(c, e.messageId) !== undefined;
      const t = ensureTurn(c, e.messageId, e.text);
      if (e.attachments?.length) t.attachments = e.attachments;
      return existed ? [] : [t.messageId];
    }
    case 'agent-update': {
      if (applySessionState(c, e.update)) return [];
      if (sparkleMarkOf(e.update) === 'embodiment') return [addEmbodiment(c, e.messageId, e.update)];
      // A call of an earlier turn that the agent completes late (Codex reports a command's end after
      // the turn, sometimes while the next runs): its own card gets it, not the running turn.
      const owner = earlierTurnOfCall(c, e.update, e.messageId);
      if (owner) {
        addUpdate(owner, e.update);
        return [owner.messageId];
      }
      // Other updates outside a prompt turn have no block to go to.
      if (!e.messageId) return [];
      const t = ensureTurn(c, e.messageId);
      addUpdate(t, announcedByPermission(t, e.update) ?? e.update);
      return [t.messageId];
    }
    case 'prompt-ended': {
      const t = ensureTurn(c, e.messageId);
      t.status = 'done';
      t.stopReason = e.stopReason;
      return [t.messageId];
    }
    case 'prompt-failed': {
      const t = ensureTurn(c, e.messageId);
      t.status = 'failed';
      t.error = e.error;
      return [t.messageId];
    }
    case 'agent-failed': {
      // A dead agent ends whatever was running in this tab.
      const changed: string[] = [];
      for (const b of c.blocks)
        if (b.kind === 'turn' && b.status === 'running') {
          b.status = 'failed';
          b.error = 'Interrupted: the agent stopped.';
          changed.push(b.messageId);
        }
      const n: Notice = {
        kind: 'notice',
        id: e.noticeId,
        level: 'error',
        agentName: e.failure.agentName,
        failure: e.failure,
        resolved: false,
      };
      c.blocks.push(n);
      return [...changed, blockId(n)];
    }
    case 'sign-in-required': {
      if (c.blocks.some((b) => b.kind === 'notice' && b.id === e.requestId)) return [];
      const signIn: SignInCard = {
        requestId: e.requestId,
        message: e.message,
        methods: e.methods,
        ...(e.optional ? { optional: e.optional } : {}),
      };
      const n: Notice = { kind: 'notice', id: e.requestId, level: 'warning', agentName: e.agentName, signIn, resolved: false };
      c.blocks.push(n);
      return [blockId(n)];
    }
    case 'sign-in-update': {
      const n = c.blocks.find((b): b is Notice => b.kind === 'notice' && b.signIn?.requestId === e.requestId);
      if (!n?.signIn) return [];
      n.signIn.state = e.state;
      n.signIn.text = e.text;
      n.resolved = e.state === 'signed-in' || e.state === 'closed';
      return [blockId(n)];
    }
    case 'turn-checkpoint': {
      const t = findTurn(c, e.messageId);
      if (!t) return [];
      t.checkpoint = true;
      return [t.messageId];
    }
    case 'files-changed': {
      // One card per turn, replaced whole when it changes (a file kept or reverted).
      const { type: _type, ...changes } = e;
      const id = `changes-${e.messageId}`;
      const existing = c.blocks.find((b): b is Notice => b.kind === 'notice' && b.id === id);
      if (existing) existing.changes = changes;
      else c.blocks.push({ kind: 'notice', id, level: 'info', agentName: c.agentName ?? 'agent', resolved: true, changes });
      return [`notice:${id}`];
    }
    case 'agent-restarted': {
      const changed: string[] = [];
      for (const b of c.blocks) {
        if (b.kind === 'notice' && b.level === 'error' && !b.resolved && (e.noticeId === undefined || b.id === e.noticeId)) {
          b.resolved = true;
          changed.push(blockId(b));
        }
      }
      // Deterministic id: replaying the same entries (resync) must produce the same blocks.
      const n: Notice = { kind: 'notice', id: `restart-${c.blocks.length}`, level: 'info', agentName: e.agentName, resolved: true };
      c.blocks.push(n);
      return [...changed, blockId(n)];
    }
  }
}

/** A recorded conversation folded whole. */
export function foldConversation(entries: readonly ConversationEntry[]): Conversation {
  const c = emptyConversation();
  for (const e of entries) applyEntry(c, e);
  return c;
}
