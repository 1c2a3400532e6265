// What the user asks for from inside a tab besides prompts: answers on approval cards, picker
// changes (mode, config options, model), and opening a diff or a file a tool call points at.
// vscode-free: the editor side comes in as `EditorActions`.
import type { AgentActor } from '../agents/agentActor';
import { confine, OutsideWorkspaceError } from '../node/confinement';
import type { Log } from '../log/logEvent';
import type { ElicitationAnswer, OpenDiff, OpenLocation, PermissionAnswer, SessionControls, TabId, TabPayload } from '../protocol/webview';
import type { Elicitations } from './elicitations';
import type { PermissionBroker } from '../permissions/permissionBroker';
import type { DiffStore, StoredDiff } from './diffStore';
import { changeSessionControl, type ControlChange } from './sessionControls';

/** What the chat asks of the editor (vscode side). */
export interface EditorActions {
  openDiff(diff: StoredDiff & { toolCallId: string }): Promise<void>;
  openLocation(path: string, line?: number): Promise<void>;
}

export type TabRequest = PermissionAnswer | ElicitationAnswer | ControlChange | OpenDiff | OpenLocation;

export interface TabRequestContext {
  log: Log;
  permissions: PermissionBroker;
  elicitations?: Pick<Elicitations, 'answer'>;
  diffs: DiffStore;
  editor?: EditorActions;
  send(payload: TabPayload): void;
  /** The tab's live session, if it has one. `controls` is the host's copy, updated in place. */
  session(tabId: TabId): { actor: AgentActor; sessionId: string; controls: SessionControls } | undefined;
  /** Where the tab's agent may work: its session folder first, then symposium.allowedFolders. */
  roots(tabId: TabId): string[];
}

export function handleTabRequest(ctx: TabRequestContext, m: TabRequest): void {
  const notice = (level: 'warning' | 'error', text: string): void => ctx.send({ type: 'tab-notice', tabId: m.tabId, level, text });
  const failed =
    (what: string) =>
    (e: unknown): void => {
      ctx.log.warn('webview', `could not ${what}`, e);
      notice('warning', `Could not ${what}: ${e instanceof Error ? e.message : String(e)}`);
    };
  switch (m.type) {
    case 'permission-answer': {
      const error = ctx.permissions.answer(
        m.tabId,
        m.requestId,
        m.bypass ? { bypass: true } : { optionId: m.optionId ?? '', ...(m.feedback ? { feedback: m.feedback } : {}) },
      );
      if (error) notice('warning', error);
      return;
    }
    case 'elicitation-answer': {
      const error = ctx.elicitations?.answer(m.tabId, m.requestId, m.action, m.values) ?? 'This chat cannot answer requests for input.';
      if (error) notice('warning', error);
      return;
    }
    case 'set-mode':
    case 'set-config-option':
    case 'set-model':
      void changeControl(ctx, m, notice);
      return;
    case 'open-diff': {
      const diff = ctx.diffs.get(m.tabId, m.toolCallId, m.path);
      if (!diff || !ctx.editor) {
        notice('warning', `No diff of ${m.path} is known for this tool call.`);
        return;
      }
      void ctx.editor.openDiff({ ...diff, toolCallId: m.toolCallId }).catch(failed('open the diff'));
      return;
    }
    case 'open-location': {
      // The path comes from the agent's tool call: open only what the agent may read itself.
      const roots = ctx.roots(m.tabId);
      let file: string;
      try {
        // The resolved path is opened: the file shown is the file checked (links followed).
        file = confine(m.path, roots, {
          hint: "Locations outside the chat's workspace folder and the folders in the symposium.allowedFolders setting are not opened.",
        });
      } catch (e) {
        const resolved = e instanceof OutsideWorkspaceError ? e.resolved : undefined;
        ctx.log.warn('webview', 'refused to open a location outside the workspace', { tabId: m.tabId, path: m.path, resolved, roots });
        notice('warning', `Not opened: ${e instanceof Error ? e.message : String(e)}`);
        return;
      }
      void ctx.editor?.openLocation(file, m.line).catch(failed(`open ${m.path}`));
      return;
    }
  }
}

/** A picker changed in the tab: ask the agent, then show what it accepted (or why not). */
async function changeControl(ctx: TabRequestContext, m: ControlChange, notice: (level: 'error', text: string) => void): Promise<void> {
  const s = ctx.session(m.tabId);
  if (!s) return;
  ctx.log.info('session', m.type, { ...m });
  try {
    const changed = await changeSessionControl(s.actor, s.sessionId, m, s.controls);
    Object.assign(s.controls, changed);
    ctx.send({ type: 'controls-changed', tabId: m.tabId, controls: changed });
  } catch (e) {
    ctx.log.warn('session', `${m.type} failed`, e);
    // Re-send the agent's current state so the picker snaps back.
    ctx.send({ type: 'controls-changed', tabId: m.tabId, controls: { ...s.controls } });
    notice('error', `The agent refused the change: ${e instanceof Error ? e.message : String(e)}`);
  }
}
