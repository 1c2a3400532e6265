// Settings the user wrote that a new chat could not honour, said where the user looks (the chat and
// the status bar) rather than only in the log: the agent named by `symposium.currentAgent` is not
// among `symposium.agents`, or it is there but held back because the workspace is not trusted. In
// a remote window (code-server, Remote-SSH, WSL, Codespaces) VS Code reads machine-scoped settings
// such as `symposium.agents` from the remote's settings and ignores the User settings' values
// without a word, which is the usual reason for a missing agent there. Pure.
import type { SettingsTarget } from '../protocol/webview';

export interface SettingProblem {
  /** One paragraph for a chat notice and the status bar's tooltip. */
  text: string;
  /** The settings file (or the trust editor) that fixes it. */
  target: SettingsTarget;
}

export interface SettingFacts {
  /** `symposium.currentAgent` as it counts, when it names no configured agent. */
  missingAgent?: string;
  /** The configured agent that did not start because the workspace is not trusted. */
  untrustedAgent?: string;
  /** The agent the chat uses instead. */
  using: string;
  /** The window is a remote one (vscode.env.remoteName is set). */
  remote: boolean;
}

export function settingProblems(f: SettingFacts): SettingProblem[] {
  const problems: SettingProblem[] = [];
  if (f.missingAgent !== undefined) {
    const where = f.remote
      ? ' This is a remote window: symposium.agents is read from the Remote settings here, and agents in your User settings are ignored. Put them in the Remote settings.'
      : ' Add it to symposium.agents in your User settings, or pick one with Symposium: Choose Agent….';
    problems.push({
      text: `symposium.currentAgent names "${f.missingAgent}", but no agent of that name is configured, so this chat uses ${f.using}.${where}`,
      target: f.remote ? 'remote' : 'user',
    });
  }
  if (f.untrustedAgent !== undefined)
    problems.push({
      text: `This workspace is not trusted, so the agent "${f.untrustedAgent}" was not started; this chat uses ${f.using}. Trust the workspace, then use Restart Agent.`,
      target: 'trust',
    });
  return problems;
}

/** The VS Code command that opens each target. */
export const SETTINGS_TARGET_COMMANDS: Record<SettingsTarget, string> = {
  user: 'workbench.action.openSettingsJson',
  remote: 'workbench.action.openRemoteSettingsFile',
  trust: 'workbench.trust.manage',
};
