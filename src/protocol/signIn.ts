// Agent sign-in between the host and the webview: when an agent refuses to work until the user
// signs in (ACP auth-required), the tab shows its `authMethods` as a card. Agent-handled and
// terminal methods are buttons; env-var methods say which variable to set and where. Part of the
// webview protocol (webview.ts lists these in its unions). Pure.

/** One ACP auth method as the card shows it. */
export interface SignInMethod {
  id: string;
  name: string;
  description?: string;
  /** `agent`: `authenticate {methodId}`; `terminal`: the agent's command in an editor terminal; `env_var`: set a variable. */
  kind: 'agent' | 'terminal' | 'env_var';
  /** What to do, for methods that are not buttons (env_var). */
  hint?: string;
}

/** The agent needs the user to sign in; `requestId` names this card. */
export interface SignInRequired {
  type: 'sign-in-required';
  tabId: string;
  requestId: string;
  agentName: string;
  /** The agent's own words (its error message), or why the card is offered. */
  message: string;
  methods: SignInMethod[];
  /**
   * Offered while the session works (the agent's `initialize` listed methods, or Sign In to the
   * Agent…), not because the agent refused: nothing waits on it, and it can be dismissed.
   */
  optional?: true;
}

/** How the sign-in of card `requestId` goes: `working` and `failed` keep the card, the others end it. */
export interface SignInUpdate {
  type: 'sign-in-update';
  tabId: string;
  requestId: string;
  state: 'working' | 'failed' | 'signed-in' | 'closed';
  text: string;
}

/** Webview → host: the user pressed "Not now" on an optional card. */
export interface SignInDismiss {
  type: 'sign-in-dismiss';
  tabId: string;
  requestId: string;
}

/** Webview → host: the user pressed a method's button. */
export interface SignInChoice {
  type: 'sign-in';
  tabId: string;
  requestId: string;
  methodId: string;
}

const text = (v: unknown, max: number): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v.slice(0, max) : undefined);

/**
 * An agent's `authMethods` (from `initialize`, untrusted) → the card's methods. Entries without an
 * id or a name are dropped; unknown `type`s are dropped too (we would not know what to do).
 * `settingPath` is where an env-var method's variable goes, e.g. `symposium.agents.Claude.env`.
 */
export function signInMethods(raw: unknown, settingPath: string): SignInMethod[] {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((m: unknown): SignInMethod[] => {
    if (typeof m !== 'object' || m === null) return [];
    const o = m as Record<string, unknown>;
    const id = text(o.id, 200);
    const name = text(o.name, 200);
    const type = o.type ?? 'agent';
    if (!id || !name || (type !== 'agent' && type !== 'terminal' && type !== 'env_var')) return [];
    const description = text(o.description, 1_000);
    const method: SignInMethod = { id, name, kind: type, ...(description ? { description } : {}) };
    if (type === 'env_var') {
      const varName = text(o.varName, 200) ?? text(o.var_name, 200) ?? 'the variable the agent names';
      method.hint = `Set ${varName} in ${settingPath} (your user settings), then restart the agent.`;
    }
    return [method];
  });
}
