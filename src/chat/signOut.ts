// "Sign Out of <agent>": ACP `logout`, offered only when the running agent advertises
// `agentCapabilities.auth.logout`. The command palette shows it while the current agent offers it
// (the context key below, kept by the status bar), and the status-bar menu lists it by name.
import * as vscode from 'vscode';
import type { AgentActor } from '../agents/agentActor';
import type { AgentPool } from '../agents/agentPool';
import type { Log } from '../log/logEvent';

export const SIGN_OUT_COMMAND = 'symposium.signOut';
/** True while the current agent's running process offers sign-out. */
export const CAN_SIGN_OUT_CONTEXT = 'symposium.agentCanSignOut';

/** The running process of `agentName` that offers sign-out, the latest started first. */
export function signOutTarget(pool: AgentPool, agentName: string): AgentActor | undefined {
  return [...pool.all()].reverse().find((a) => a.agentName === agentName && a.canSignOut);
}

export function registerSignOut(pool: AgentPool, currentAgent: () => string, log: Log): vscode.Disposable {
  return vscode.commands.registerCommand(SIGN_OUT_COMMAND, async (): Promise<boolean> => {
    const name = currentAgent();
    const actor = signOutTarget(pool, name);
    if (!actor) {
      void vscode.window.showInformationMessage(`Symposium: ${name} does not offer signing out (or is not running).`);
      return false;
    }
    try {
      await actor.signOut();
    } catch (e) {
      log.warn('auth', 'sign-out failed', { agent: name, error: e instanceof Error ? e.message : String(e) });
      void vscode.window.showErrorMessage(`Symposium: signing out of ${name} failed: ${e instanceof Error ? e.message : String(e)}`);
      return false;
    }
    log.info('auth', 'signed out', { agent: name });
    void vscode.window.showInformationMessage(`Symposium: signed out of ${name}.`);
    return true;
  });
}
